// Heartbeats for the order worker's short activities (charges, refunds, callbacks): with a heartbeat
// timeout, an activity whose worker died is retried within seconds instead of after its
// start-to-close timeout. Engine activities heartbeat their own progress and do not use this.
import type { Context } from '@temporalio/activity';
import type { ActivityInboundCallsInterceptor, ActivityExecuteInput, Next } from '@temporalio/worker';

const EVERY_MS = 2_000;

class HeartbeatWhileRunning implements ActivityInboundCallsInterceptor {
  constructor(private readonly context: Context) {}

  async execute(input: ActivityExecuteInput, next: Next<ActivityInboundCallsInterceptor, 'execute'>): Promise<unknown> {
    // A local activity (the charge) lives inside its workflow task, which the server times out itself.
    if (this.context.info.isLocal) return next(input);
    const timer = setInterval(() => this.context.heartbeat(), EVERY_MS);
    try {
      return await next(input);
    } finally {
      clearInterval(timer);
    }
  }
}

export const heartbeatInterceptors = { activity: [(context: Context) => ({ inbound: new HeartbeatWhileRunning(context) })] };
