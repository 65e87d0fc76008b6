/**
 * Gateway responses: every error API Gateway answers by itself (unknown route, throttling, a body over
 * its limit, an integration failure) keeps the interface's `{error, status}` JSON body and the status
 * names of decisions.md, so a client handles one error shape whichever layer answered.
 */
import { ResponseType, type RestApi } from 'aws-cdk-lib/aws-apigateway';

/** The `error` text of a gateway response: a fixed message, or API Gateway's own (already JSON-quoted). */
const GATEWAY_MESSAGE = '$context.error.messageString';

/** Internal failures never carry details; the request id lets an operator find the logs. */
const internal = (what: string): string => JSON.stringify(`${what}; quote request id $context.requestId when reporting it`);

/** One gateway response: its type, the HTTP status (absent: API Gateway's own), the body's fields. */
export interface WireGatewayResponse {
  readonly type: ResponseType;
  readonly statusCode?: string;
  readonly status: string;
  /** A JSON string literal, or `GATEWAY_MESSAGE`. */
  readonly error: string;
}

/** Every gateway response kmem sets; the two defaults catch the types not listed. */
export const GATEWAY_RESPONSES: readonly WireGatewayResponse[] = [
  { type: ResponseType.DEFAULT_4XX, status: 'bad_request', error: GATEWAY_MESSAGE },
  { type: ResponseType.DEFAULT_5XX, status: 'error', error: internal('internal error') },
  { type: ResponseType.MISSING_AUTHENTICATION_TOKEN, statusCode: '404', status: 'not_found', error: '"no such route"' },
  { type: ResponseType.RESOURCE_NOT_FOUND, statusCode: '404', status: 'not_found', error: '"no such route"' },
  { type: ResponseType.BAD_REQUEST_BODY, statusCode: '400', status: 'bad_request', error: GATEWAY_MESSAGE },
  { type: ResponseType.BAD_REQUEST_PARAMETERS, statusCode: '400', status: 'bad_request', error: GATEWAY_MESSAGE },
  { type: ResponseType.UNSUPPORTED_MEDIA_TYPE, statusCode: '415', status: 'bad_request', error: GATEWAY_MESSAGE },
  { type: ResponseType.REQUEST_TOO_LARGE, statusCode: '413', status: 'bad_request', error: '"request body too large"' },
  { type: ResponseType.UNAUTHORIZED, statusCode: '401', status: 'unauthorized', error: GATEWAY_MESSAGE },
  { type: ResponseType.ACCESS_DENIED, statusCode: '403', status: 'forbidden', error: GATEWAY_MESSAGE },
  { type: ResponseType.INVALID_API_KEY, statusCode: '403', status: 'forbidden', error: GATEWAY_MESSAGE },
  { type: ResponseType.WAF_FILTERED, statusCode: '403', status: 'forbidden', error: '"request blocked"' },
  { type: ResponseType.THROTTLED, statusCode: '429', status: 'rate_limited', error: '"too many requests; retry later"' },
  { type: ResponseType.QUOTA_EXCEEDED, statusCode: '429', status: 'rate_limited', error: '"request quota exceeded"' },
  { type: ResponseType.INTEGRATION_TIMEOUT, statusCode: '504', status: 'error', error: internal('timed out') },
  { type: ResponseType.INTEGRATION_FAILURE, statusCode: '502', status: 'error', error: internal('internal error') },
];

/** The `application/json` body template of a gateway response. */
export const gatewayBody = (response: WireGatewayResponse): string => `{"error":${response.error},"status":"${response.status}"}`;

/** Adds every response of `GATEWAY_RESPONSES` to `api`. */
export function addGatewayResponses(api: RestApi): void {
  for (const response of GATEWAY_RESPONSES) {
    api.addGatewayResponse(response.type.responseType, {
      type: response.type,
      statusCode: response.statusCode,
      responseHeaders: { 'Content-Type': "'application/json'" },
      templates: { 'application/json': gatewayBody(response) },
    });
  }
}
