// widgets.js: the one script a page needs to embed live figures.
//   <script type="module" src="https://…/widgets.js"></script>
//   <scalescope-widget view="roofline" state="v=1&hw=tpu-v5e"></scalescope-widget>
// It finds the engine (engine/), its worker and the explorer (index.html) next to itself, whatever page loads it.
/// <reference types="vite/client" />
import { setSiteRoot } from './engine';
import { defineWidget } from './widget';

setSiteRoot(new URL(import.meta.env.DEV ? '/' : './', import.meta.url));
defineWidget();
