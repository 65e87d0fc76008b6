/**
 * What an operator watches: per route and method, a p99 latency alarm and a 5XX alarm (API Gateway's
 * detailed metrics, dimensions ApiName / Method / Resource / Stage), API-wide alarms, and one dashboard
 * with the API, every function, the ingestion queue, its dead letters and every alarm's state.
 */
import { Duration } from 'aws-cdk-lib';
import {
  type Alarm,
  AlarmStatusWidget,
  Dashboard,
  GraphWidget,
  type IAlarmAction,
  type IMetric,
  Metric,
  type MetricOptions,
} from 'aws-cdk-lib/aws-cloudwatch';
import { Construct } from 'constructs';
import type { RouteSpec } from '../../functions/http/route-spec';
import type { StageConfig } from '../config';
import { addAlarm } from './alarms';
import { addServiceMetrics } from './service-metrics';
import { resourcePath } from './catalog-routes';
import type { QueueWorker } from './queue-worker';
import type { ServiceFunction } from './service-function';
import type { Api } from './api';

/** Properties of `Observability`. */
export interface ObservabilityProps {
  readonly config: StageConfig;
  readonly api: Api;
  readonly routes: readonly RouteSpec[];
  readonly ingestion: QueueWorker;
  readonly alarmAction?: IAlarmAction;
}

/** The API alarms and the dashboard. */
export class Observability extends Construct {
  readonly dashboard: Dashboard;
  readonly alarms: Alarm[] = [];
  private readonly period: Duration;

  constructor(
    scope: Construct,
    id: string,
    private readonly props: ObservabilityProps,
  ) {
    super(scope, id);
    this.period = Duration.minutes(props.config.alarms.periodMinutes);
    this.addApiAlarms();
    if (props.config.alarms.perRoute) {
      for (const route of props.routes) this.addRouteAlarms(route);
    }
    this.dashboard = new Dashboard(this, 'Dashboard', { dashboardName: `kmem-${props.config.stage}` });
    this.addWidgets();
  }

  /** An API Gateway metric of one route and method (or of the whole API without `route`). */
  apiMetric(metricName: string, statistic: string, route?: RouteSpec): Metric {
    const { restApi } = this.props.api;
    const dimensionsMap: Record<string, string> = {
      ApiName: restApi.restApiName,
      Stage: restApi.deploymentStage.stageName,
    };
    if (route) Object.assign(dimensionsMap, { Method: route.method, Resource: resourcePath(route.path) });
    return new Metric({ namespace: 'AWS/ApiGateway', metricName, dimensionsMap, statistic, period: this.period });
  }

  /** `apiMetric` of a route, labelled with it for dashboards (alarms take unlabelled metrics). */
  private routeMetric(metricName: string, statistic: string, route: RouteSpec): IMetric {
    return this.apiMetric(metricName, statistic, route).with({ label: routeName(route) });
  }

  private addApiAlarms(): void {
    const { alarms } = this.props.config;
    const errors = `The API answered ${alarms.serverErrors} or more 5XX in ${alarms.periodMinutes} min.`;
    this.alarm('Api5xxAlarm', this.apiMetric('5XXError', 'Sum'), alarms.serverErrors, errors);
    const latency = `API p99 latency reached ${alarms.latencyP99Ms} ms.`;
    this.alarm('ApiLatencyAlarm', this.apiMetric('Latency', 'p99'), alarms.latencyP99Ms, latency);
  }

  private addRouteAlarms(route: RouteSpec): void {
    const { alarms } = this.props.config;
    const name = routeName(route);
    const id = name.replace(/[^A-Za-z0-9]+/g, '_');
    const latency = `${name}: p99 latency reached ${alarms.latencyP99Ms} ms.`;
    this.alarm(`${id}Latency`, this.apiMetric('Latency', 'p99', route), alarms.latencyP99Ms, latency);
    const errors = `${name}: ${alarms.serverErrors} or more 5XX in ${alarms.periodMinutes} min.`;
    this.alarm(`${id}5xx`, this.apiMetric('5XXError', 'Sum', route), alarms.serverErrors, errors);
  }

  private alarm(id: string, metric: IMetric, threshold: number, description: string): void {
    const evaluationPeriods = this.props.config.alarms.evaluationPeriods;
    this.alarms.push(addAlarm(this, id, { metric, threshold, evaluationPeriods, description }, this.props.alarmAction));
  }

  private addWidgets(): void {
    const { routes } = this.props;
    this.dashboard.addWidgets(
      graph('API requests', [this.apiMetric('Count', 'Sum')]),
      graph('API errors', [this.apiMetric('4XXError', 'Sum'), this.apiMetric('5XXError', 'Sum')]),
      graph('API latency', [this.apiMetric('Latency', 'p50'), this.apiMetric('Latency', 'p99')]),
    );
    this.dashboard.addWidgets(
      graph(
        'p99 latency by route',
        routes.map((route) => this.routeMetric('Latency', 'p99', route)),
        12,
      ),
      graph(
        '5XX by route',
        routes.map((route) => this.routeMetric('5XXError', 'Sum', route)),
        12,
      ),
    );
    this.addFunctionWidgets();
    this.addQueueWidgets();
    const { alarms: settings } = this.props.config;
    this.alarms.push(
      ...addServiceMetrics(this, this.dashboard, {
        period: this.period,
        evaluationPeriods: settings.evaluationPeriods,
        fileFailurePercent: settings.fileFailurePercent,
        webhookDeadPercent: settings.webhookDeadPercent,
        ...(this.props.alarmAction ? { alarmAction: this.props.alarmAction } : {}),
      }),
    );
    const alarms = [...this.alarms, ...this.props.ingestion.alarms];
    this.dashboard.addWidgets(new AlarmStatusWidget({ title: 'Alarms', alarms, width: 24 }));
  }

  private addFunctionWidgets(): void {
    const { api, ingestion } = this.props;
    const functions = [...api.functions.values(), ...(ingestion.worker ? [ingestion.worker] : [])];
    const each = (metric: (fn: ServiceFunction, options: MetricOptions) => IMetric): IMetric[] =>
      functions.map((fn) => metric(fn, { period: this.period, label: fn.node.id }));
    this.dashboard.addWidgets(
      graph(
        'Function errors',
        each((fn, options) => fn.function.metricErrors(options)),
      ),
      graph(
        'Function throttles',
        each((fn, options) => fn.function.metricThrottles(options)),
      ),
      graph(
        'Function p99 duration',
        each((fn, options) => fn.function.metricDuration({ ...options, statistic: 'p99' })),
      ),
    );
  }

  private addQueueWidgets(): void {
    const { queue, deadLetterQueue } = this.props.ingestion;
    const options = { period: this.period, statistic: 'Maximum' };
    this.dashboard.addWidgets(
      graph('Ingestion queue depth', [queue.metricApproximateNumberOfMessagesVisible(options)]),
      graph('Oldest ingestion message (s)', [queue.metricApproximateAgeOfOldestMessage(options)]),
      graph('Dead letters', [deadLetterQueue.metricApproximateNumberOfMessagesVisible(options)]),
    );
  }
}

const routeName = (route: RouteSpec): string => `${route.method} ${resourcePath(route.path)}`;

const graph = (title: string, left: IMetric[], width = 8): GraphWidget => new GraphWidget({ title, left, width, height: 6 });
