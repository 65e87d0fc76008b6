/** The API's version: the OpenAPI document's `info.version` and the MCP server's version. */
export const API_VERSION = '1.0.0';
