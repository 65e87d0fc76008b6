/**
 * Defaults the local runtime needs before any handler module loads: Powertools reads these when its
 * logger, metrics and tracer are constructed. Imported first by the runtime; an explicit setting wins.
 */
const LOCAL_DEFAULTS: Record<string, string> = {
  POWERTOOLS_METRICS_DISABLED: 'true',
  POWERTOOLS_TRACE_ENABLED: 'false',
  // with tracing off, keep the X-Ray SDK from hooking every promise (cls-hooked costs ~8% of local CPU)
  AWS_XRAY_MANUAL_MODE: 'true',
  POWERTOOLS_LOG_LEVEL: 'WARN',
  AWS_REGION: 'local',
};

for (const [name, value] of Object.entries(LOCAL_DEFAULTS)) process.env[name] ??= value;
