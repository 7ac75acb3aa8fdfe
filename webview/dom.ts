/**
 * The webview's only way to build DOM: strings always become text nodes, attributes are set one by one, and there is
 * no HTML parsing anywhere, so PDF-derived strings (metadata, font names, file names) can never become markup.
 */
export type Child = Node | string | number | null | undefined | false;

export interface Props {
  class?: string;
  title?: string;
  [attr: string]: string | number | boolean | undefined | ((e: Event) => void);
}

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props | null = null, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (props) {
    for (const [k, v] of Object.entries(props)) {
      if (v === undefined || v === false) continue;
      if (typeof v === 'function') {
        if (k.startsWith('on')) el.addEventListener(k.slice(2).toLowerCase(), v);
        continue;
      }
      // Only plain attributes: never on* handlers from data, never a URL scheme from the PDF.
      if (k.startsWith('on') || k === 'src' || k === 'href' || k === 'style') continue;
      el.setAttribute(k === 'class' ? 'class' : k, v === true ? '' : String(v));
    }
  }
  append(el, ...children);
  return el;
}

export function append(el: Element, ...children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    el.append(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
  }
}

export function clear(el: Element): void {
  while (el.firstChild) el.removeChild(el.firstChild);
}

export function icon(name: string): HTMLElement {
  // The codicon name always comes from our own tables, never from the PDF.
  return h('i', { class: `codicon codicon-${name}`, 'aria-hidden': 'true' });
}
