// Placement alone, product by product: live orders one at a time with a pause after each, so each
// order's follow-up work (an engine product's dispatch and hand-over) is done before the next is
// placed. Compared with the transcription order in the same run, which `npm run bench` puts side
// by side with the floor. Latencies printed include the pause; subtract `--pause-ms`.
// Usage: npm run build && npm run bench:paced [-- --count 40 --pause-ms 400 --rounds 2]
// The embedded stack with AI_ENGINE=operator ALIGN_ENGINE=operator. Never part of `npm test`.
import { parseArgs } from 'node:util';
import { measure, productExamples, startService } from './lib.mjs';

const { values } = parseArgs({
  options: { count: { type: 'string', default: '40' }, 'pause-ms': { type: 'string', default: '400' }, rounds: { type: 'string', default: '2' } },
});
const COUNT = Number(values.count);
const PAUSE = Number(values['pause-ms']);
const PRODUCTS = ['transcriptions', 'ai-transcriptions', 'forced-alignments', 'transcription-proofreadings'];

const service = await startService({ concurrency: 1, env: { AI_ENGINE: 'operator', ALIGN_ENGINE: 'operator' } });
const examples = productExamples(service.mediaUrl);
const pause = () => new Promise((r) => setTimeout(r, PAUSE));
const rows = [];
try {
  for (let round = 1; round <= Number(values.rounds); round++) {
    for (const path of PRODUCTS) {
      const fields = examples[path];
      const once = async () => {
        await service.orderAt(path, fields);
        await pause();
      };
      for (let i = 0; i < 5; i++) await once(); // warm-up
      rows.push({ round, path, ...(await measure(`${path}, paced (round ${round})`, COUNT, 1, once)) });
    }
  }
  console.log(`\n| product | round | placement p50 ms | p95 ms |\n|---|---|---|---|`);
  for (const r of rows) console.log(`| ${r.path} | ${r.round} | ${(r.p50_ms - PAUSE).toFixed(1)} | ${(r.p95_ms - PAUSE).toFixed(1)} |`);
} finally {
  await service.stop();
}
