import { request } from 'node:https';

/**
 * The fetch used for client metadata documents under the development flag only: plain
 * node:https, which may reach loopback and private addresses and may trust an extra CA
 * (a test's or a developer's own certificate). The library still bounds its time and size.
 */
export function devFetch(ca: string | undefined) {
  return (url: string | URL, init: { signal?: AbortSignal; headers?: Headers } = {}): Promise<Response> =>
    new Promise((resolve, reject) => {
      const headers: Record<string, string> = {};
      init.headers?.forEach((v, k) => (headers[k] = v));
      const req = request(
        url,
        { method: 'GET', headers, ...(ca ? { ca } : {}), ...(init.signal ? { signal: init.signal } : {}) },
        (res) => {
          const responseHeaders = new Headers();
          for (const [k, v] of Object.entries(res.headers))
            if (v !== undefined) responseHeaders.set(k, Array.isArray(v) ? v.join(', ') : v);
          const body = new ReadableStream<Uint8Array>({
            start(controller) {
              res.on('data', (chunk: Buffer) => controller.enqueue(new Uint8Array(chunk)));
              res.on('end', () => controller.close());
              res.on('error', (err) => controller.error(err));
            },
            cancel() {
              res.destroy();
            },
          });
          resolve(new Response(body, { status: res.statusCode ?? 500, headers: responseHeaders }));
        },
      );
      req.on('error', reject);
      req.end();
    });
}
