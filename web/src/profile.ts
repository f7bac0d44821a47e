// Entry point of the profile page (profile.html): defines <scalescope-profile>, which the page already contains.
import './profile/profile-page';
