import { json } from '../_shared/json.ts';

/** Reflects the request it received, so the suite can see what the runner passes through. */
Deno.serve(async (req) => {
  const url = new URL(req.url);
  const headers = Object.fromEntries(
    ['authorization', 'apikey', 'content-type', 'x-custom', 'x-client-info'].map((h) => [
      h,
      req.headers.get(h),
    ]),
  );
  return json({
    method: req.method,
    pathname: url.pathname,
    search: url.search,
    headers,
    body: await req.text(),
  });
});
