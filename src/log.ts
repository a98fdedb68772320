/** One JSON line per event, for operators and log collectors. Never pass secrets in `meta`. */
export function log(message: string, meta: object = {}): void {
  process.stdout.write(JSON.stringify({ time: new Date().toISOString(), msg: message, ...meta }) + '\n');
}
