// Entry point of the static site: defines <scalescope-explorer>, which index.html already contains.
import './ui/explorer';
