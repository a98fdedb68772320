// The floor of bench/floor.mjs and bench/millionOrders.mjs: a bare Express app in its own process
// that parses a form body as POST /api/v4/transcriptions does and answers every request with the
// same JSON (BENCH_JSON) the service answered (a test-mode quote, an order record), with no
// validation, probe, pricing or database. Prints {"listening":port}.
import express from 'express';

const body = process.env.BENCH_JSON ?? '{}';
const app = express();
app.use(express.urlencoded({ extended: false }));
app.use((req, res) => {
  res.type('application/json').send(body);
});
const server = app.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ listening: server.address().port })));
process.on('SIGINT', () => server.close(() => process.exit(0)));
