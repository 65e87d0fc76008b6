/** The resolve hook of loaded-packages.mjs: posts the name of each npm package resolved, once. */
let port;
const seen = new Set();

export function initialize(data) {
  port = data.port;
}

export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  const key = resolved.url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/)?.[1];
  if (key && !seen.has(key)) {
    seen.add(key);
    port.postMessage(key);
  }
  return resolved;
}
