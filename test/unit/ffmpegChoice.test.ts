// Which ffmpeg the service runs (chooseFfmpeg, src/engines/audioRendition.ts): FFMPEG's, else the
// first on PATH, else the one npm install put in ENGINES_DIR/ffmpeg, else none, saying why.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chooseFfmpeg, ffmpegRenderer, onPath, packagedFfmpeg } from '../../src/engines/audioRendition.js';

describe('the ffmpeg the service runs', () => {
  const root = mkdtempSync(join(tmpdir(), 'ffmpeg-choice-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const dir = (name: string) => {
    const path = join(root, name);
    mkdirSync(path, { recursive: true });
    return path;
  };
  const program = (path: string, mode = 0o755) => {
    writeFileSync(path, '#!/bin/sh\necho "ffmpeg version test"\n');
    chmodSync(path, mode);
    return path;
  };

  const system = program(join(dir('system-bin'), 'ffmpeg'));
  const other = dir('other-bin');
  const engines = dir('engines');
  const packaged = program(join(dir('engines/ffmpeg'), 'ffmpeg'));
  const noEngines = dir('no-engines');
  const PATH = `${other}:${join(root, 'system-bin')}`;

  it('FFMPEG wins over PATH and the packaged one; FFMPEG=none means none', () => {
    expect(chooseFfmpeg({ FFMPEG: '/opt/ffmpeg/bin/ffmpeg', PATH, ENGINES_DIR: engines })).toEqual({ command: '/opt/ffmpeg/bin/ffmpeg', source: 'FFMPEG' });
    expect(chooseFfmpeg({ FFMPEG: 'none', PATH, ENGINES_DIR: engines })).toEqual({ source: 'none', reason: 'FFMPEG=none' });
  });

  it('a system ffmpeg on PATH wins over the packaged one: the first executable file, as the shell finds it', () => {
    expect(chooseFfmpeg({ PATH, ENGINES_DIR: engines })).toEqual({ command: system, source: 'PATH' });
    // Not executable, or a directory: skipped.
    program(join(dir('not-executable'), 'ffmpeg'), 0o644);
    dir('a-directory/ffmpeg');
    const skipping = `${join(root, 'not-executable')}:${join(root, 'a-directory')}:${join(root, 'system-bin')}`;
    expect(onPath('ffmpeg', skipping)).toBe(system);
    expect(onPath('ffmpeg', `${join(root, 'not-executable')}:${join(root, 'a-directory')}`)).toBeUndefined();
  });

  it('without FFMPEG and with none on PATH, the one npm install brought', () => {
    expect(packagedFfmpeg({ ENGINES_DIR: engines }).binary).toBe(packaged);
    expect(chooseFfmpeg({ PATH: other, ENGINES_DIR: engines })).toEqual({ command: packaged, source: 'packaged' });
    expect(chooseFfmpeg({ PATH: '', ENGINES_DIR: engines })).toEqual({ command: packaged, source: 'packaged' });
  });

  it('none at all: says why (never installed, or no build for this machine, as its manifest says)', () => {
    expect(chooseFfmpeg({ PATH: other, ENGINES_DIR: noEngines })).toEqual({
      source: 'none',
      reason: `none on PATH, and npm install put none in ${join(noEngines, 'ffmpeg', 'ffmpeg')}`,
    });
    const skipped = dir('skipped-engines/ffmpeg');
    const why = 'npm install brings no ffmpeg for linux/ppc64 (builds for Linux x64 and arm64 only)';
    writeFileSync(join(skipped, 'manifest.json'), JSON.stringify({ skipped: why }));
    expect(chooseFfmpeg({ PATH: other, ENGINES_DIR: join(root, 'skipped-engines') })).toEqual({ source: 'none', reason: why });
  });

  it('no renderer where there is no ffmpeg, or it does not run', () => {
    expect(ffmpegRenderer('none')).toBeUndefined();
    expect(ffmpegRenderer(join(root, 'not-executable', 'ffmpeg'))).toBeUndefined();
    expect(ffmpegRenderer(packaged)?.name).toBe('ffmpeg');
  });
});
