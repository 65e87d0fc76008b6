/** The REST API: routes from the catalog, stage settings, and gateway responses in the interface's shape. */
import { Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { catalog, groups } from '../../functions/catalog';
import { resourcePath } from '../../lib/constructs/catalog-routes';
import { GATEWAY_RESPONSES, gatewayBody } from '../../lib/constructs/gateway-responses';
import { actionsOfRole, statementsOfRole, logicalId, type Synthesized, synthesize } from './support/synth';

let synth: Synthesized;

beforeAll(() => {
  synth = synthesize();
});

/** Full resource paths of the template, by logical id, rebuilt from the parent chain. */
function resourcePaths(): Map<string, string> {
  const resources = synth.template.findResources('AWS::ApiGateway::Resource');
  const apiId = logicalId(synth.stack, synth.stack.api.restApi);
  const pathOf = (id: string): string => {
    const props = resources[id]?.Properties;
    const parent = props.ParentId;
    const prefix = parent['Fn::GetAtt']?.[0] === apiId ? '' : pathOf(parent.Ref);
    return `${prefix}/${props.PathPart}`;
  };
  return new Map(Object.keys(resources).map((id) => [id, pathOf(id)]));
}

/** `METHOD /path -> integrated function logical id` for every method of the template. */
function deployedRoutes(): Map<string, string> {
  const paths = resourcePaths();
  const methods = synth.template.findResources('AWS::ApiGateway::Method');
  return new Map(
    Object.values(methods).map((method) => {
      const props = method.Properties;
      const path = props.ResourceId.Ref ? paths.get(props.ResourceId.Ref) : '/';
      const uri = JSON.stringify(props.Integration.Uri);
      const target = /"Fn::GetAtt":\["([A-Za-z0-9]+)","Arn"\]/.exec(uri)?.[1] ?? '';
      return [`${props.HttpMethod} ${path}`, target];
    }),
  );
}

describe('routes', () => {
  it('deploys exactly the catalog routes, each to its group function', () => {
    const routes = deployedRoutes();
    const expected = new Map(
      catalog.map((route) => {
        const fn = synth.stack.api.functions.get(route.group);
        expect(fn, `function of ${route.group}`).toBeDefined();
        return [`${route.method} ${resourcePath(route.path)}`, fn ? logicalId(synth.stack, fn.function) : ''];
      }),
    );
    expect(Object.fromEntries(routes)).toEqual(Object.fromEntries(expected));
  });

  it('serves MCP at POST /mcp from its own function, which may read the table (to check keys) and nothing else', () => {
    const mcp = synth.stack.api.functions.get('mcp');
    expect(mcp).toBeDefined();
    expect(deployedRoutes().get('POST /mcp')).toBe(logicalId(synth.stack, mcp?.function ?? synth.stack));
    const actions = actionsOfRole(synth.template, logicalId(synth.stack, mcp?.role ?? synth.stack));
    expect(actions).toContain('dynamodb:GetItem');
    expect(actions.filter((a) => /^(sqs|s3|bedrock):|dynamodb:(PutItem|DeleteItem)/.test(a))).toEqual([]);
    // it reads the API key items alone (their partition keys `KEY#<lookup id>`): no Scan, Query or batch read
    expect(actions.filter((a) => /dynamodb:(Scan|Query|BatchGetItem|GetRecords)/.test(a))).toEqual([]);
    const reads = statementsOfRole(synth.template, logicalId(synth.stack, mcp?.role ?? synth.stack)).filter((s) =>
      JSON.stringify(s.Action).includes('dynamodb:GetItem'),
    );
    expect(
      reads.map((s) => ({ action: s.Action, leadingKeys: JSON.stringify(s).match(/"dynamodb:LeadingKeys":(\[[^\]]*\])/)?.[1] })),
    ).toEqual([{ action: 'dynamodb:GetItem', leadingKeys: '["KEY#*"]' }]);
    // its one write: the per-account request counters of the rate limit
    const updates = statementsOfRole(synth.template, logicalId(synth.stack, mcp?.role ?? synth.stack)).filter((s) =>
      JSON.stringify(s.Action).includes('dynamodb:UpdateItem'),
    );
    expect(updates.map((s) => JSON.stringify(s))).toEqual([expect.stringContaining('"dynamodb:LeadingKeys":["A#*#RATE#*"]')]);
  });

  it('lets no read-only function Scan the table (retrieval reads by key and query only)', () => {
    for (const group of ['retrieval', 'mcp', 'meta'] as const) {
      const fn = synth.stack.api.functions.get(group);
      if (!fn) throw new Error(`no ${group} function`);
      const actions = actionsOfRole(synth.template, logicalId(synth.stack, fn.role));
      expect({ group, scans: actions.filter((a) => a === 'dynamodb:Scan') }).toEqual({ group, scans: [] });
    }
  });

  it('has one function per catalog group', () => {
    expect([...synth.stack.api.functions.keys()].sort()).toEqual(groups().sort());
  });

  it('integrates as Lambda proxy without authorizers', () => {
    synth.template.allResourcesProperties('AWS::ApiGateway::Method', {
      AuthorizationType: 'NONE',
      Integration: { Type: 'AWS_PROXY', IntegrationHttpMethod: 'POST' },
    });
  });

  it('maps catalog paths to resource paths', () => {
    expect(resourcePath('/users/get/{id}')).toBe('/users/get/{id}');
    expect(resourcePath('/memory/')).toBe('/memory');
    expect(resourcePath('/')).toBe('/');
  });
});

describe('stage', () => {
  it('passes every body to Lambda base64-encoded', () => {
    synth.template.hasResourceProperties('AWS::ApiGateway::RestApi', { BinaryMediaTypes: ['*/*'] });
  });

  it('throttles, traces, logs access as JSON and records detailed metrics', () => {
    const { api } = synth.stack.config;
    synth.template.hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: api.stageName,
      TracingEnabled: true,
      AccessLogSetting: {
        DestinationArn: Match.anyValue(),
        Format: Match.stringLikeRegexp('"requestId":"\\$context.requestId"'),
      },
      MethodSettings: [
        Match.objectLike({
          HttpMethod: '*',
          ResourcePath: '/*',
          ThrottlingRateLimit: api.throttleRateLimit,
          ThrottlingBurstLimit: api.throttleBurstLimit,
          MetricsEnabled: true,
          LoggingLevel: 'ERROR',
          DataTraceEnabled: false,
        }),
      ],
    });
  });
});

/** Renders a gateway response template with sample `$context` values, as API Gateway would. */
function render(template: string): unknown {
  const rendered = template
    .replaceAll('$context.error.messageString', '"Missing Authentication Token"')
    .replaceAll('$context.requestId', 'c0ffee00-0000-4000-8000-000000000000');
  return JSON.parse(rendered);
}

describe('gateway responses', () => {
  it.each(GATEWAY_RESPONSES.map((response) => [response.type.responseType, response] as const))(
    '%s answers {error, status} JSON',
    (type, response) => {
      const body = gatewayBody(response);
      synth.template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
        ResponseType: type,
        ...(response.statusCode ? { StatusCode: response.statusCode } : {}),
        ResponseTemplates: { 'application/json': body },
        ResponseParameters: { 'gatewayresponse.header.Content-Type': "'application/json'" },
      });
      const parsed = render(body);
      expect(parsed).toEqual({ error: expect.any(String), status: response.status });
    },
  );

  it('answers an unknown route 404 not_found', () => {
    synth.template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: 'MISSING_AUTHENTICATION_TOKEN',
      StatusCode: '404',
      ResponseTemplates: { 'application/json': '{"error":"no such route","status":"not_found"}' },
    });
  });

  it('answers throttling 429 rate_limited and an oversized body 413 bad_request', () => {
    const statusOf = (type: string): unknown => {
      const response = GATEWAY_RESPONSES.find((r) => r.type.responseType === type);
      return response && { code: response.statusCode, body: render(gatewayBody(response)) };
    };
    const answer = (code: string, status: string) => ({ code, body: { error: expect.any(String), status } });
    expect(statusOf('THROTTLED')).toEqual(answer('429', 'rate_limited'));
    expect(statusOf('REQUEST_TOO_LARGE')).toEqual(answer('413', 'bad_request'));
  });

  it('never shows internal details in 5XX answers', () => {
    const fiveXx = GATEWAY_RESPONSES.filter((r) => r.status === 'error');
    expect(fiveXx.map((r) => r.type.responseType)).toContain('DEFAULT_5XX');
    for (const response of fiveXx) expect(gatewayBody(response)).not.toContain('$context.error');
  });
});
