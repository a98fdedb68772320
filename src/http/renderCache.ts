// Rendered result files, kept so repeated downloads do not render again. Keyed by everything
// a rendering depends on (the stored file's content key among them), bounded in bytes, LRU.
import type { RenderedFile } from '../domain/render/index.js';

export class RenderCache {
  private readonly entries = new Map<string, RenderedFile>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  async get(key: string, render: () => Promise<RenderedFile>): Promise<RenderedFile> {
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit); // most recently used last
      return hit;
    }
    const file = await render();
    if (file.body.length <= this.maxBytes) {
      this.entries.set(key, file);
      this.bytes += file.body.length;
      for (const [oldKey, old] of this.entries) {
        if (this.bytes <= this.maxBytes) break;
        this.entries.delete(oldKey);
        this.bytes -= old.body.length;
      }
    }
    return file;
  }
}
