import { createHash } from 'node:crypto';

/**
 * The one inline script of a prerendered page (decision 062), at the end of its body. It starts the
 * page's JavaScript only once the browser has painted the prerendered HTML: when the first contentful
 * paint is reported (Paint Timing; where that is missing, two animation frames later), or at once in
 * a hidden tab, which paints nothing; after 3 s in any case. It adds a modulepreload for every chunk
 * the page needs (its `data-modules`, space-separated), all at once as the head did before, then the
 * entry (`data-entry`). Its text never changes between builds (the page's own chunk names ride in the
 * data attributes), so one CSP hash allows it.
 */
export const PAINT_FIRST_SCRIPT =
  '(function(){var d=document,s=d.currentScript,done=0;function go(){if(done++)return;' +
  's.getAttribute("data-modules").split(" ").forEach(function(h){if(!h)return;var l=d.createElement("link");' +
  'l.rel="modulepreload";l.crossOrigin="";l.href=h;d.head.appendChild(l)});' +
  'var m=d.createElement("script");m.type="module";m.crossOrigin="";m.src=s.getAttribute("data-entry");d.head.appendChild(m)}' +
  'if(d.visibilityState==="hidden")return go();setTimeout(go,3000);' +
  'var P=window.PerformanceObserver;if(P&&P.supportedEntryTypes&&P.supportedEntryTypes.indexOf("paint")>=0)' +
  'new P(function(l,o){if(l.getEntriesByName("first-contentful-paint").length){o.disconnect();setTimeout(go,0)}}).observe({type:"paint",buffered:true});' +
  'else requestAnimationFrame(function(){requestAnimationFrame(function(){setTimeout(go,0)})})})();';

/** The CSP source that allows PAINT_FIRST_SCRIPT and no other inline script. */
export const PAINT_FIRST_SCRIPT_HASH = `'sha256-${createHash('sha256').update(PAINT_FIRST_SCRIPT).digest('base64')}'`;
