/**
 * Measurements the site's browser test runs inside the page (`page.evaluate`), for what a person sees of the
 * layout: where lines break, what overflows its box, how a control sits beside its label. Each function is
 * self-contained (it is sent to the page as its source text) and returns plain data for the test to assert on.
 */

/**
 * Every line break inside a word under the elements matching `selector`: a break between two letters or
 * digits, found by the rectangles of the characters of each text node. Breaks at a space, after a hyphen or a
 * slash are a line's normal end and are not reported. Each as `<text>: …<before>|<after>…`.
 */
export function midWordBreaks(selector: string): string[] {
  const found: string[] = [];
  const word = /[\p{L}\p{N}]/u;
  for (const root of Array.from(document.querySelectorAll(selector))) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      const range = document.createRange();
      let previousTop: number | undefined;
      for (let i = 0; i < text.length; i += 1) {
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const rect = range.getClientRects()[0];
        if (!rect || rect.width === 0) continue; // a collapsed space
        if (previousTop !== undefined && rect.top > previousTop + rect.height / 2) {
          const before = text[i - 1] ?? '';
          const after = text[i] ?? '';
          if (word.test(before) && word.test(after))
            found.push(`${text.trim()}: …${text.slice(Math.max(0, i - 8), i)}|${text.slice(i, i + 8)}…`);
        }
        previousTop = rect.top;
      }
    }
  }
  return found;
}

/** The elements matching `selector` whose content is wider than their box (cut, or scrolled sideways). */
export function overflowingBoxes(selector: string): string[] {
  return Array.from(document.querySelectorAll(selector))
    .filter((element) => element.scrollWidth > element.clientWidth + 1)
    .map((element) => `${element.textContent?.trim().slice(0, 40)}: ${element.scrollWidth} > ${element.clientWidth}`);
}

/** A checkbox and its label's first line: their boxes, to see the box is a checkbox's size and sits beside its text. */
export function checkboxBesideLabel(selector: string): {
  box: { width: number; height: number; left: number; right: number; middle: number };
  text: { left: number; top: number; bottom: number };
} {
  const input = document.querySelector(selector) as HTMLInputElement;
  const label = input.closest('label') ?? document.querySelector(`label[for="${input.id}"]`);
  const box = input.getBoundingClientRect();
  const textNode = Array.from(label?.childNodes ?? []).find((node) => node.nodeType === 3 && node.textContent?.trim());
  const range = document.createRange();
  if (textNode) range.selectNodeContents(textNode);
  const first = range.getClientRects()[0] ?? new DOMRect();
  return {
    box: { width: box.width, height: box.height, left: box.left, right: box.right, middle: box.top + box.height / 2 },
    text: { left: first.left, top: first.top, bottom: first.bottom },
  };
}

/** How far the header's logo sits from the header's edges (top, left), in CSS pixels, at the top of the page. */
export function logoMargins(): { top: number; left: number } {
  const header = document.querySelector('.site-header')!.getBoundingClientRect();
  const logo = document.querySelector('.brand-mark')!.getBoundingClientRect();
  return { top: logo.top - header.top, left: logo.left - header.left };
}
