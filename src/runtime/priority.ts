// CPU priorities (nice) of the service's children. The work behind an order (the speech engine's
// drafts and transcriptions, ffmpeg on kept media) runs at the lowest priority: it takes the cores
// the placement of orders and the pages (nice 0) leave idle, and yields them at once when orders
// arrive (issue 45; docs/benchmarks.md). Readers of customer files a request waits for stay higher
// (src/documents/sandbox/).
export const BACKGROUND_NICE = 19;
