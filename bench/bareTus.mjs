// The floor of bench/upload.mjs: a bare @tus/server with @tus/file-store in its own process, on
// Node's own http server, with the libraries' defaults (the memory lock, the upload's state in a
// JSON file beside its bytes). No authentication, database or Express. Its uploads go to
// BENCH_TUS_DIR (the bench puts it beside the service's data directory, on the same disk).
// Prints {"listening":port}.
import { createServer } from 'node:http';
import { FileStore } from '@tus/file-store';
import { Server } from '@tus/server';

const directory = process.env.BENCH_TUS_DIR;
if (!directory) throw new Error('BENCH_TUS_DIR must name the uploads directory');
const tus = new Server({ path: '/files', datastore: new FileStore({ directory }) });
const server = createServer((req, res) => void tus.handle(req, res));
server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ listening: server.address().port })));
process.on('SIGINT', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
