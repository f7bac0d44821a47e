// embed.html?view=roofline&state=v%3D1%26hw%3Dtpu-v5e: one widget, full width, for a page that can only hold an
// iframe. The view and the state are URL text: they are set as attributes (never parsed as HTML), and the widget
// decodes the state with the explorer's codec like any other.
import { setSiteRoot } from './widgets/engine';
import { defineWidget } from './widgets/widget';
import { VIEW_NAMES } from './widgets/views';

setSiteRoot(new URL('./', document.baseURI));
defineWidget();
const q = new URLSearchParams(window.location.search);
const view = q.get('view') ?? '';
const host = document.getElementById('embed')!;
const w = document.createElement('scalescope-widget');
w.setAttribute('view', VIEW_NAMES.includes(view) ? view : view || 'roofline');
w.setAttribute('state', q.get('state') ?? 'v=1');
host.replaceChildren(w);
document.title = `Scalescope: ${w.getAttribute('view')}`;
