// Floor 1 of bench/floor.mjs: a bare Express app in its own process that parses the same form
// body as POST /api/v4/transcriptions and answers the same JSON (BENCH_JSON) as a test-mode
// quote, with no validation, probe, pricing or database. Prints {"listening":port}.
import express from 'express';

const body = process.env.BENCH_JSON ?? '{}';
const app = express();
app.use(express.urlencoded({ extended: false }));
app.post('/api/v4/transcriptions', (req, res) => { res.type('application/json').send(body); });
const server = app.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ listening: server.address().port })));
process.on('SIGINT', () => server.close(() => process.exit(0)));
