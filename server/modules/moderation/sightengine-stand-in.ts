/**
 * Tests only: a local HTTP server that answers like Sightengine's check-workflow endpoint, so the real provider code
 * (multipart request, JSON parsing, error handling) runs without the network. Each test sets what it answers.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StandInReply {
  status?: number;
  /** JSON body; `undefined` with `hang` never answers (a timeout). */
  body?: unknown;
  hang?: boolean;
}

export interface SightengineStandIn {
  url: string;
  /** Requests seen: the multipart text fields, and how many bytes of media arrived. */
  requests: { fields: Record<string, string>; mediaBytes: number }[];
  reply: (next: StandInReply) => void;
  close(): Promise<void>;
}

/** A successful workflow answer with these nudity-2.1 intensity scores (the rest in `none`). */
export function workflowAnswer(scores: { sexual_activity?: number; sexual_display?: number; erotica?: number }) {
  const sexual_activity = scores.sexual_activity ?? 0.001;
  const sexual_display = scores.sexual_display ?? 0.001;
  const erotica = scores.erotica ?? 0.001;
  return {
    status: 'success',
    request: { id: 'req_standin', timestamp: Date.now() / 1000, operations: 1 },
    summary: { action: 'accept', reject_prob: Math.max(sexual_activity, sexual_display, erotica), reject_reason: [] },
    nudity: {
      sexual_activity,
      sexual_display,
      erotica,
      very_suggestive: 0.01,
      suggestive: 0.01,
      mildly_suggestive: 0.01,
      suggestive_classes: {},
      none: Math.max(0, 1 - sexual_activity - sexual_display - erotica - 0.03),
      context: {},
    },
    media: { id: 'med_standin', uri: 'photo.jpg' },
  };
}

function multipartFields(body: Buffer, contentType: string): { fields: Record<string, string>; mediaBytes: number } {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(contentType);
  const fields: Record<string, string> = {};
  let mediaBytes = 0;
  if (!boundary) return { fields, mediaBytes };
  const sep = `--${boundary[1] ?? boundary[2]}`;
  for (const part of body.toString('latin1').split(sep)) {
    const [head, ...rest] = part.split('\r\n\r\n');
    const name = /name="([^"]+)"/.exec(head ?? '')?.[1];
    if (!name) continue;
    const value = rest.join('\r\n\r\n').replace(/\r\n$/, '');
    if (/filename=/.test(head ?? '')) mediaBytes = Buffer.byteLength(value, 'latin1');
    else fields[name] = value;
  }
  return { fields, mediaBytes };
}

export async function startSightengineStandIn(): Promise<SightengineStandIn> {
  let next: StandInReply = { body: workflowAnswer({}) };
  const requests: SightengineStandIn['requests'] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push(multipartFields(Buffer.concat(chunks), req.headers['content-type'] ?? ''));
      if (next.hang) return;
      res.writeHead(next.status ?? 200, { 'content-type': 'application/json' });
      res.end(typeof next.body === 'string' ? next.body : JSON.stringify(next.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/1.0/check-workflow.json`,
    requests,
    reply: (r) => {
      next = r;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
