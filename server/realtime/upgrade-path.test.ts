import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RawClient, listeningApp, type ListeningApp } from './test-helpers.ts';

/**
 * The upgrade request reaches the realtime server before Fastify's URL canonicalisation: a key with a malformed
 * percent-escape once went to decodeURIComponent inside the 'upgrade' listener, which threw and ended the process.
 */
describe('websocket upgrade path', () => {
  let t: ListeningApp;
  beforeAll(async () => {
    t = await listeningApp();
  }, 180_000);
  afterAll(async () => {
    await t.app.close();
  });

  it('refuses a key with a malformed escape with 4001, and the server keeps serving', async () => {
    const bad = new RawClient(`ws://127.0.0.1:${t.port}/app/%E0%A4%A?protocol=7`);
    expect((await bad.closed).code).toBe(4001);
    const good = await RawClient.connect(t.port, t.app.config.realtime.key);
    expect(good.socketId).toMatch(/^\d+\.\d+$/);
    good.ws.close();
  });

  it('cuts an upgrade whose target cannot be read as a URL (absolute form, bad host) and keeps serving', async () => {
    const socket = net.connect(t.port, '127.0.0.1');
    socket.write(
      'GET http://[bad/app/key?protocol=7 HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
        'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
    );
    await new Promise((resolve) => socket.on('close', resolve).on('error', resolve));
    const good = await RawClient.connect(t.port, t.app.config.realtime.key);
    expect(good.socketId).toMatch(/^\d+\.\d+$/);
    good.ws.close();
  });
});
