// One change of an order's state at a time (the Mutex of Temporal's safe-message-handlers sample).
// Taken without an await, so a validator that runs next sees it held and refuses; a change that
// finds it held waits by wf.condition. Orders in flight replay with their commands in the order they
// were recorded: a change starts and ends at the same moments as before the lock.
export class StateLock {
  private taken = false;

  get held(): boolean {
    return this.taken;
  }

  /** Only once it is free (OrderRun.transition waits for that). */
  take(): void {
    this.taken = true;
  }

  release(): void {
    this.taken = false;
  }
}
