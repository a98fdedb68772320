// The order statuses as a person sees them in the account area (and filters by): a paid order an
// engine works on is "in progress", a finished one in its quality check "in quality check".
/** The status labels a person sees (and filters by); "in progress": an engine is at work. */
export const STATUS_LABELS = ['paid', 'in progress', 'finished', 'refunded', 'canceled', 'in quality check', 'retranscribed'] as const;
export type StatusLabel = (typeof STATUS_LABELS)[number];

export function statusLabel(order: { status: string; assignee: string; qcStatus: string | null }): string {
  if (order.status === 'paid') return order.assignee === 'engine' ? 'in progress' : 'paid';
  if (order.status === 'finished') return order.qcStatus === 'pending' ? 'in quality check' : 'finished';
  return order.status.replace(/_/g, ' ');
}

/** No more changes to show: polling stops. */
export const isSettled = (label: string): boolean => ['finished', 'refunded', 'canceled', 'retranscribed'].includes(label);
