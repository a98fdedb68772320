// CPU priorities of the service's children. The work behind an order (the speech engine, ffmpeg on
// kept media) runs in the background, at nice 19: it takes the cores the placement of orders and
// the pages (nice 0) leave idle, and yields them when orders arrive (issues 45, 56). A draft of
// people's work, which nobody waits on now, runs under SCHED_IDLE as well: only on CPU time nothing
// else wants (docs/decisions/background-cpu-priority.md). Readers of customer files a request waits
// for stay higher (src/documents/sandbox/).
export const BACKGROUND_NICE = 19;
