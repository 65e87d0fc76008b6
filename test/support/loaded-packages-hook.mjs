/** The resolve hook of loaded-packages.mjs: posts each npm package (and chrono-node locale) resolved. */
let port;
const seen = new Set();

export function initialize(data) {
  port = data.port;
}

export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  const name = resolved.url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)(?:\/dist\/esm\/locales\/([^/]+))?/);
  const key = name ? (name[2] ? `${name[1]}/${name[2]}` : name[1]) : undefined;
  if (key && !seen.has(key)) {
    seen.add(key);
    port.postMessage(key);
  }
  return resolved;
}
