// Entry point of the static site: defines <scalescope-explorer>, which index.html already contains, and wires the
// page's skip link (the first Tab stop) to the explorer's results, which live in its shadow root.
import './page/explorer';
import type { ScalescopeExplorer } from './page/explorer';

document.querySelector<HTMLAnchorElement>('a.skip')?.addEventListener('click', (e) => {
  e.preventDefault();
  document.querySelector<ScalescopeExplorer>('scalescope-explorer')?.focusResults();
});
