// Which of a list of timed things (words, in the order they are said) is the last started by a
// time: a binary search, shared by the editor and the transcript beside its media. Its own module,
// so that the account area's script holds no more than it uses.

/** The index of the last of `items` (in order of their starts) started by `t`, or -1. */
export function lastStartedBy<T>(items: readonly T[], t: number, startOf: (item: T) => number): number {
  let lo = 0;
  let hi = items.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (startOf(items[mid]!) <= t) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}
