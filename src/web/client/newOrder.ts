// The new-order page (/account/orders/new, src/web/pages/newOrder.ts): the chosen product's options,
// each file uploaded by tus to /account/uploads with a progress bar (resumed after a reload when the
// same file is picked again: tus-js-client's fingerprint in localStorage), its price asked once it is
// uploaded and again whenever the options change, and "Place order": one order per file, each with
// an idempotency key made when the file was added, so that a double click or a retry charges once.
// Bundled with tus-js-client into dist/web/assets/new-order.js by scripts/bundle-pages.mjs.
import { Upload } from 'tus-js-client';
import { hexKey, megabytes, refusalEndsKey, sameFile, totalsOf, uploadProgress, usd, type Quote } from './pure/orderForm.js';

// 8 MB a PATCH: at 1.2 Mbit/s one still arrives within the server's 60 s for a request body.
const CHUNK_BYTES = 8 * 1024 * 1024;
const REQUOTE_DELAY_MS = 400;

/** A file parameter of the product (`data-files` of its options): the first is the file picked, the others are asked per file. */
interface FileField {
  name: string;
  label: string;
  hint: string;
}

/** A file being uploaded: its tus upload, its progress box, its URL once whole or why it stopped. */
interface Slot {
  file: File;
  url: string | null;
  failed: string | null;
  box: HTMLDivElement;
  tus: Upload;
}

/** One file, one order: its uploads, its quote, and the key its placement is made under. */
interface Item {
  key: string;
  main: Slot;
  extra: Record<string, Slot>;
  quote: Quote | null;
  quoteSeq: number;
  pending: string | null;
  refusal: string | null;
  orderId: string | null;
  row: HTMLLIElement;
  extras: HTMLDivElement;
  price: HTMLSpanElement;
  status: HTMLParagraphElement;
  remove: HTMLButtonElement;
}

/** The service's JSON answer: a quote, a placed order, or a refusal naming its field. */
interface Answer extends Partial<Quote> {
  error?: string;
  field?: string;
  order_id?: string;
}

/** The page's element `id`, which src/web/pages/newOrder.ts renders with the form. */
const pageElement = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<HTMLElementTagNameMap[K]> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

const newKey = () => hexKey(crypto.getRandomValues(new Uint8Array(16)));

const form = document.getElementById('new-order');
if (form) newOrderPage(form);

function newOrderPage(form: HTMLElement) {
  const csrf = form.dataset.csrf ?? '';
  const endpoint = new URL(form.dataset.uploads ?? '', location.href).href;
  const productSelect = pageElement<HTMLSelectElement>('product');
  const picker = pageElement<HTMLInputElement>('files');
  const dropZone = pageElement('drop-zone');
  const list = pageElement('uploads');
  const totals = pageElement('totals');
  const problem = pageElement('order-problem');
  const placeButton = pageElement<HTMLButtonElement>('place-order');
  const items: Item[] = [];
  let placing = false;
  let requoteTimer: ReturnType<typeof setTimeout> | undefined;

  const optionsBox = () => pageElement<HTMLFieldSetElement>('options');
  const fileFields = () => JSON.parse(optionsBox().dataset.files ?? '[]') as FileField[];

  /** A JSON request of the page, with the session's CSRF token; a refusal keeps the server's message. */
  async function post(path: string, body: object): Promise<{ status: number; body: Answer }> {
    let res;
    try {
      res = await fetch(path, {
        method: 'POST',
        credentials: 'same-origin',
        redirect: 'manual',
        headers: { 'content-type': 'application/json', accept: 'application/json', 'x-csrf-token': csrf },
        body: JSON.stringify(body),
      });
    } catch {
      return { status: 0, body: { error: 'The service could not be reached: check the connection and try again.' } };
    }
    if (!(res.headers.get('content-type') ?? '').includes('application/json')) {
      return { status: res.status, body: { error: 'Your session has ended: sign in again in another tab, then try again.' } };
    }
    return { status: res.status, body: (await res.json()) as Answer };
  }

  // A file, uploaded: its progress bar and its URL once whole.
  function upload(file: File, label: string, onDone: () => void): Slot {
    const fill = el('span', { className: 'fill' });
    const bar = el('div', { className: 'bar' }, fill);
    bar.setAttribute('role', 'progressbar');
    bar.setAttribute('aria-label', label);
    bar.setAttribute('aria-valuemin', '0');
    bar.setAttribute('aria-valuemax', '100');
    const text = el('span', { className: 'progress-text' });
    const progress = (sent: number, total: number) => {
      const { percent, text: said } = uploadProgress(sent, total);
      bar.setAttribute('aria-valuenow', String(percent));
      bar.setAttribute('aria-valuetext', `${percent}%`);
      fill.style.width = `${percent}%`;
      text.textContent = said;
    };
    progress(0, file.size);
    const tus: Upload = new Upload(file, {
      endpoint,
      chunkSize: CHUNK_BYTES,
      retryDelays: [0, 1000, 3000, 5000, 10000],
      metadata: { filename: file.name, filetype: file.type },
      headers: { 'X-CSRF-Token': csrf },
      onProgress: progress,
      onSuccess() {
        progress(file.size, file.size);
        slot.url = tus.url;
        onDone();
      },
      onError(err) {
        const response = 'originalResponse' in err ? err.originalResponse : null;
        slot.failed = `The upload stopped (${response ? `the service answered ${response.getStatus()}` : 'the connection failed'}): pick the file again to go on from where it was.`;
        text.textContent = slot.failed;
        onDone();
      },
    });
    const slot: Slot = { file, url: null, failed: null, box: el('div', { className: 'progress' }, bar, text), tus };
    // The same file picked again after a reload goes on from the offset the service has.
    void tus.findPreviousUploads().then((previous) => {
      if (previous[0]) tus.resumeFromPreviousUpload(previous[0]);
      tus.start();
    });
    return slot;
  }

  function addFile(file: File) {
    const status = el('p', { className: 'upload-status' });
    status.setAttribute('aria-live', 'polite');
    const price = el('span', { className: 'price' });
    price.dataset.field = 'price';
    const extras = el('div', { className: 'extras' });
    const remove = el('button', { type: 'button', className: 'secondary', textContent: 'Remove' });
    remove.setAttribute('aria-label', `Remove ${file.name}`);
    remove.addEventListener('click', () => removeItem(item));
    // Picked again after its upload stopped: the new row goes on with it, the stopped one goes.
    const stopped = items.find((other) => other.main.failed && sameFile(other.main.file, file));
    if (stopped) removeItem(stopped);
    const main = upload(file, `Upload of ${file.name}`, () => void quote(item));
    const row = el('li', { className: 'upload' }, el('span', { className: 'file-name', textContent: file.name }), main.box, extras, price, status, remove);
    const item: Item = {
      key: newKey(),
      main,
      extra: {},
      quote: null,
      quoteSeq: 0,
      pending: null,
      refusal: null,
      orderId: null,
      row,
      extras,
      price,
      status,
      remove,
    };
    items.push(item);
    list.append(item.row);
    askExtras(item);
    refresh();
  }

  function removeItem(item: Item) {
    for (const slot of [item.main, ...Object.values(item.extra)]) void slot.tus.abort();
    items.splice(items.indexOf(item), 1);
    item.row.remove();
    refresh();
  }

  /** The product's other files of an order (a transcript to check or align), asked per file. */
  function askExtras(item: Item) {
    item.extras.replaceChildren(
      ...fileFields()
        .slice(1)
        .map((field) => {
          const slot = item.extra[field.name];
          if (slot) return slot.box;
          const input = el('input', { type: 'file' });
          input.addEventListener('change', () => {
            const picked = input.files?.[0];
            if (!picked) return;
            item.extra[field.name] = upload(picked, `Upload of the ${field.label.toLowerCase()} for ${item.main.file.name}`, () => void quote(item));
            askExtras(item);
          });
          return el(
            'label',
            { className: 'extra-file' },
            `${field.label} for ${item.main.file.name}`,
            el('span', { className: 'hint', textContent: field.hint }),
            input,
          );
        }),
    );
  }

  function orderBody(item: Item) {
    const [main, ...others] = fileFields();
    const files: Record<string, string | null> = main ? { [main.name]: item.main.url } : {};
    for (const field of others) {
      const url = item.extra[field.name]?.url;
      if (url) files[field.name] = url;
    }
    const options: Record<string, string | boolean> = {};
    // The options' controls: inputs, selects and text areas (each read by its name, type and value).
    for (const control of optionsBox().elements as HTMLCollectionOf<HTMLInputElement>) {
      if (!control.name) continue;
      if (control.type === 'checkbox') options[control.name] = control.checked;
      else if (control.value.trim() !== '') options[control.name] = control.value;
    }
    return { product: productSelect.value, options, files };
  }

  const uploaded = (item: Item) =>
    Boolean(item.main.url) &&
    fileFields()
      .slice(1)
      .every((field) => item.extra[field.name]?.url);

  async function quote(item: Item) {
    item.quote = null;
    const seq = ++item.quoteSeq;
    if (!uploaded(item) || item.orderId) return refresh();
    item.refusal = null;
    item.pending = 'Working out the price…';
    refresh();
    const answer = await post('/account/orders/new/quote', orderBody(item));
    if (seq !== item.quoteSeq || !items.includes(item)) return; // options changed meanwhile: a newer quote is on its way
    item.pending = null;
    if (answer.status === 200) item.quote = answer.body as Quote;
    else refuse(item, answer.body);
    refresh();
  }

  /** A refusal naming an option marks that field; one naming the file stays with the file. */
  function refuse(item: Item, { error, field }: Answer) {
    item.refusal = error ?? null;
    const control = field && optionsBox().elements.namedItem(field);
    if (control instanceof Element) {
      control.setAttribute('aria-invalid', 'true');
      problem.textContent = error ?? null;
      problem.hidden = false;
    }
  }

  function requoteAll() {
    for (const control of optionsBox().querySelectorAll('[aria-invalid]')) control.removeAttribute('aria-invalid');
    problem.hidden = true;
    for (const item of items) void quote(item);
  }

  /** A field of the totals (`data-field`). */
  const totalsField = (name: string, text: string) => {
    const field = totals.querySelector(`[data-field="${name}"]`);
    if (field) field.textContent = text;
  };

  function refresh() {
    for (const item of items) {
      const slots = [item.main, ...Object.values(item.extra)];
      const failed = slots.find((slot) => slot.failed)?.failed;
      item.price.textContent = item.quote ? `Price ${usd(item.quote.price_cents)}` : '';
      item.status.className = `upload-status${item.refusal ? ' alert' : ''}`;
      if (item.orderId) item.status.replaceChildren('Placed: ', el('a', { href: `/account/orders/${item.orderId}`, textContent: `order ${item.orderId}` }));
      else item.status.textContent = item.refusal ?? failed ?? item.pending ?? (uploaded(item) || item.quote ? '' : 'Choose the options while it uploads.');
      item.remove.hidden = Boolean(item.orderId);
    }
    const open = items.filter((item) => !item.orderId);
    const quotes = open.flatMap((item) => (item.quote ? [item.quote] : []));
    const sums = quotes.length === open.length ? totalsOf(quotes) : undefined;
    totals.hidden = !sums;
    if (sums) {
      totalsField('total', usd(sums.total));
      totalsField('balance', usd(sums.balance));
      totalsField('balance-after', usd(sums.after));
    }
    placeButton.disabled = placing || !sums;
  }

  async function placeAll() {
    placing = true;
    refresh();
    for (const item of items.filter((i) => !i.orderId && i.quote)) {
      item.refusal = null;
      const answer = await post('/account/orders/new/place', { ...orderBody(item), idempotency_key: item.key });
      if (answer.status === 200) item.orderId = answer.body.order_id ?? null;
      else {
        refuse(item, answer.body);
        if (refusalEndsKey(answer.status)) item.key = newKey();
      }
    }
    placing = false;
    refresh();
    const placed = items.filter((item) => item.orderId);
    if (placed.length === items.length && placed.length === 1) return location.assign(`/account/orders/${placed[0]!.orderId}`);
    if (placed.length === items.length) {
      form.hidden = true;
      pageElement('placed').replaceChildren(
        el('h2', { textContent: 'Orders placed' }),
        el(
          'ul',
          {},
          ...placed.map((item) =>
            el('li', {}, el('a', { href: `/account/orders/${item.orderId}`, textContent: `Order ${item.orderId}` }), ` ${item.main.file.name}`),
          ),
        ),
      );
    }
  }

  function chooseProduct() {
    const template = pageElement<HTMLTemplateElement>(`options-${productSelect.value}`);
    optionsBox().replaceWith(template.content.firstElementChild!.cloneNode(true));
    for (const item of items) askExtras(item);
    requoteAll();
  }

  productSelect.addEventListener('change', chooseProduct);
  // A change of options asks every file's price again, once the typing pauses; meanwhile no old price can be placed.
  form.addEventListener('input', (event) => {
    if (!(event.target instanceof Node) || !optionsBox().contains(event.target)) return;
    for (const item of items) item.quote = null;
    refresh();
    clearTimeout(requoteTimer);
    requoteTimer = setTimeout(requoteAll, REQUOTE_DELAY_MS);
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (!placing && !placeButton.disabled) void placeAll();
  });
  picker.addEventListener('change', () => {
    for (const file of picker.files ?? []) addFile(file);
    picker.value = ''; // the same file may be picked again
  });
  dropZone.addEventListener('dragover', (event) => {
    event.preventDefault();
    dropZone.classList.add('dragging');
  });
  dropZone.addEventListener('dragleave', () => dropZone.classList.remove('dragging'));
  dropZone.addEventListener('drop', (event) => {
    event.preventDefault();
    dropZone.classList.remove('dragging');
    if (!picker.disabled) for (const file of event.dataTransfer?.files ?? []) addFile(file);
  });
}
