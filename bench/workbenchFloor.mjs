// The floor of bench/workbench.mjs: a bare Express app in its own process that parses a JSON body
// as the workbench's autosave (POST /work/tasks/:id/save, {"text": ...}) does and answers 204, with
// no session, CSRF check, claim check or database. Prints {"listening":port}.
import express from 'express';

const app = express();
app.use(express.json({ limit: '1mb' }));
app.post('/work/tasks/:id/save', (req, res) => {
  if (typeof req.body?.text !== 'string') return void res.status(400).json({ error: 'text: must be text' });
  res.status(204).end();
});
app.use((_req, res) => void res.status(404).end());
const server = app.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ listening: server.address().port })));
process.on('SIGINT', () => server.close(() => process.exit(0)));
