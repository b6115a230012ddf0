import { createHash } from 'node:crypto';

/**
 * The one inline script of a prerendered page (decisions 062 and 102), at the end of its body.
 *
 * It starts the page's JavaScript only once the browser has painted the prerendered HTML: when the first
 * contentful paint is reported (Paint Timing; where that is missing, two animation frames later), or at
 * once in a hidden tab, which paints nothing; after 3 s in any case; and at once on the visitor's first
 * interaction (pointer, key, click, submit). It adds the entry (`data-entry`), then a modulepreload for every
 * chunk the page needs (its `data-modules`, space-separated), one a task: adding one costs Chromium a few ms
 * of the main thread (about 10 ms at Lighthouse's 4x CPU), so the 15-18 of a page with a form were one long
 * task of 100-240 ms (decision 108). The entry's own imports are fetched by the module loader anyway; the
 * preloads start the page's lazy chunks before the entry asks for them.
 *
 * Until the app has attached (`data-hydrated` on <html>, set by src/components/HydrationMark.tsx), it
 * holds what the visitor did: a form's submit and a click on a button are stopped (a form never submits
 * natively, so its fields never reach an address), the control is marked busy (`aria-busy` and the
 * `tap-held` class of src/styles.css), and each held control is kept once in `window.__heldTaps` for the
 * app to carry out (src/lib/held-taps.ts). A click on a submit button goes on to its form's submit event,
 * which is the one held. If the entry cannot be loaded, it lets go: the marks are cleared and later taps
 * act natively (a form then posts to its own page, which answers with the page again).
 *
 * Its text never changes between builds (the page's own chunk names ride in the data attributes), so one
 * CSP hash allows it.
 */
export const PAINT_FIRST_SCRIPT =
  '(function(){var d=document,w=window,s=d.currentScript,r=d.documentElement,held=w.__heldTaps=[],done=0,failed=0;' +
  'function unmark(h){h.busy.classList.remove("tap-held");h.busy.removeAttribute("aria-busy");h.target.__held=0}' +
  'function go(){if(done++)return;' +
  'var m=d.createElement("script");m.type="module";m.crossOrigin="";m.src=s.getAttribute("data-entry");' +
  'm.onerror=function(){failed=1;held.splice(0).forEach(unmark)};d.head.appendChild(m);' +
  'var q=s.getAttribute("data-modules").split(" "),i=0;(function next(){var h;while(i<q.length&&!(h=q[i++]));if(!h)return;' +
  'var l=d.createElement("link");l.rel="modulepreload";l.crossOrigin="";l.href=h;d.head.appendChild(l);setTimeout(next,0)})()}' +
  'function hold(e){go();if(failed||r.hasAttribute("data-hydrated"))return;' +
  'var c=e.type=="submit"?e.target:e.target.closest&&e.target.closest("button");if(!c)return;' +
  'e.stopPropagation();if(e.type=="click"&&c.type=="submit"&&c.form)return;e.preventDefault();' +
  'if(c.__held)return;c.__held=1;var b=e.submitter||c;b.setAttribute("aria-busy","true");b.classList.add("tap-held");' +
  'held.push({type:e.type,target:c,busy:b,submitter:e.submitter||null})}' +
  'd.addEventListener("click",hold,true);d.addEventListener("submit",hold,true);' +
  'd.addEventListener("pointerdown",go,true);d.addEventListener("keydown",go,true);' +
  'if(d.visibilityState==="hidden")return go();setTimeout(go,3000);' +
  'var P=w.PerformanceObserver;if(P&&P.supportedEntryTypes&&P.supportedEntryTypes.indexOf("paint")>=0)' +
  'new P(function(l,o){if(l.getEntriesByName("first-contentful-paint").length){o.disconnect();setTimeout(go,0)}}).observe({type:"paint",buffered:true});' +
  'else requestAnimationFrame(function(){requestAnimationFrame(function(){setTimeout(go,0)})})})();';

/** The CSP source that allows PAINT_FIRST_SCRIPT and no other inline script. */
export const PAINT_FIRST_SCRIPT_HASH = `'sha256-${createHash('sha256').update(PAINT_FIRST_SCRIPT).digest('base64')}'`;

/**
 * The opening tags of the forms in a page's HTML that could submit their fields natively as a GET: every
 * form that is not `method="post"`. The prerender step refuses to write a page that has one.
 */
export function formsThatCouldGet(html: string): string[] {
  return [...html.matchAll(/<form\b[^>]*>/gi)].map((m) => m[0]).filter((tag) => !/\smethod="post"/i.test(tag));
}
