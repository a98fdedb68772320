// The channel between the service and a child the spawner started (src/runtime/childChannel.ts).
// Under load the service reads late, and a child's token and its first message arrive in one read:
// the message must wait for the owner who takes the channel on a later turn, not be dropped (it
// was the child's "ready": its jobs waited forever).
import { createConnection } from 'node:net';
import { serialize } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { channelServer } from '../../src/runtime/childChannel.js';

const frame = (value: unknown) => {
  const body = serialize(value);
  const head = Buffer.alloc(4);
  head.writeUInt32BE(body.length);
  return Buffer.concat([head, body]);
};

describe('the child channel', () => {
  it('keeps the messages that arrive with the token until the channel has an owner, in order', async () => {
    const server = await channelServer();
    const expected = server.expect();
    const socket = createConnection(`\0${server.name}`);
    await new Promise((resolve) => socket.once('connect', resolve));
    // The token and two messages in one write, then one more later.
    socket.write(Buffer.concat([frame(expected.token), frame({ ready: true }), frame({ n: 1 })]));
    const channel = await expected.connected;
    await new Promise((resolve) => setTimeout(resolve, 20));
    const received: unknown[] = [];
    channel.on('message', (message) => received.push(message));
    socket.write(frame({ n: 2 }));
    await expect.poll(() => received).toEqual([{ ready: true }, { n: 1 }, { n: 2 }]);
    channel.close();
    socket.destroy();
  });

  it('closes a peer whose first frame is not a token it expects', async () => {
    const server = await channelServer();
    const socket = createConnection(`\0${server.name}`);
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(frame('a token nobody gave out'));
    await new Promise((resolve) => socket.once('close', resolve));
    expect(socket.destroyed).toBe(true);
  });
});
