/**
 * The console's Content-Security-Policy, one copy for CloudFront (lib/constructs/console-site.ts) and the
 * local runtime (functions/local/console-files.ts). The console loads its own scripts, styles and its graph
 * layout worker, calls the API on its own origin, and PUTs large files to presigned object-store addresses
 * (`uploadOrigin`: S3 on AWS, the local store locally); it uses no eval, inline script or frame.
 */

/** Where presigned uploads go on AWS: the artefact bucket's S3 endpoints. */
export const AWS_UPLOAD_ORIGIN = 'https://*.amazonaws.com';

/** The policy, with presigned uploads allowed to `uploadOrigin`. */
export function consoleContentSecurityPolicy(uploadOrigin: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    `connect-src 'self' ${uploadOrigin}`,
    "img-src 'self' data:",
    "style-src 'self' 'unsafe-inline'",
    "worker-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join('; ');
}
