// The wallet: balance, AI minutes, the ledger with its running balance, and the ledger as CSV.
import type { Router } from 'express';
import type { WebDeps } from '../context.js';
import { formatUtc } from '../../domain/time.js';
import { csvField } from '../../domain/csv.js';
import { sendPage } from '../errors.js';
import { queryString, usd, when } from '../format.js';
import { html } from '../html.js';
import { layout, pager } from '../layout.js';
import { orderLink } from '../orderView.js';
import { ledgerOf, type LedgerRow } from '../../db/accountArea.js';
import { signedIn } from '../session.js';
import { caseSensitiveRouter } from '../../http/router.js';

const PAGE_SIZE = 50;

export { csvField };

const dollars = (cents: number) => (cents / 100).toFixed(2);

export function ledgerCsv(rows: LedgerRow[]): string {
  const header = ['date_utc', 'kind', 'order_id', 'amount_usd', 'ai_minutes', 'balance_after_usd', 'note'];
  // Amounts are written as numbers (a minus sign is not a formula); the text fields go through csvField.
  const lines = rows.map((e) =>
    [
      csvField(formatUtc(e.createdAt)),
      csvField(e.kind),
      csvField(e.orderId),
      dollars(e.amountCents),
      csvField(e.aiMinutes),
      dollars(e.balanceAfterCents),
      csvField(e.note),
    ].join(','),
  );
  return [header.join(','), ...lines].join('\r\n') + '\r\n';
}

export function walletRouter(deps: WebDeps): Router {
  const router = caseSensitiveRouter();

  router.get('/wallet', async (req, res) => {
    const { account, csrf } = signedIn(res);
    const page = Math.min(Math.max(1, Math.floor(Number(queryString(req.query.page)) || 1)), 100_000);
    const rows = await ledgerOf(deps.db, account.id, { offset: (page - 1) * PAGE_SIZE, limit: PAGE_SIZE });
    const body = html`<h1>Wallet</h1>
<dl class="summary">
<div><dt>Balance</dt><dd data-field="balance">${usd(account.balanceCents)}</dd></div>
<div><dt>AI minutes left</dt><dd data-field="ai-minutes">${account.aiMinutes}</dd></div>
</dl>
<h2>Ledger</h2>
<p><a id="ledger-csv" href="/account/wallet.csv" download>Download CSV</a> (every entry)</p>
<div class="table-wrap"><table id="ledger" class="cards">
<caption>Top-ups, charges, refunds and grants, newest first${page > 1 ? html` (page ${page})` : ''}</caption>
<thead><tr><th scope="col">Date</th><th scope="col">Kind</th><th scope="col">Order</th><th scope="col">Amount</th><th scope="col">AI minutes</th><th scope="col">Balance after</th><th scope="col">Note</th></tr></thead>
<tbody>${rows.slice(0, PAGE_SIZE).map(
      (e) => html`<tr data-entry="${e.id}">
<td data-label="Date">${when(e.createdAt)}</td>
<td data-label="Kind" data-field="kind">${e.kind}</td>
<td data-label="Order">${e.orderId !== null ? orderLink(e.orderId) : '—'}</td>
<td data-label="Amount" data-field="amount">${usd(e.amountCents)}</td>
<td data-label="AI minutes">${e.aiMinutes || '—'}</td>
<td data-label="Balance after" data-field="balance-after">${usd(e.balanceAfterCents)}</td>
<td data-label="Note">${e.note ?? ''}</td>
</tr>`,
    )}</tbody></table></div>
${rows.length === 0 ? html`<p>No entries yet.</p>` : ''}
${pager(
  page > 1 ? `/account/wallet${page > 2 ? `?page=${page - 1}` : ''}` : undefined,
  rows.length > PAGE_SIZE ? `/account/wallet?page=${page + 1}` : undefined,
  'Newer entries',
  'Older entries',
)}`;
    sendPage(res, 200, layout({ title: 'Wallet', csrf, current: 'wallet', body }));
  });

  router.get('/wallet.csv', async (_req, res) => {
    const { account } = signedIn(res);
    const csv = ledgerCsv(await ledgerOf(deps.db, account.id));
    res
      .set({
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="wallet-${account.id}-ledger.csv"`,
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
      })
      .send(csv);
  });
  return router;
}
