// The theme's navigation toggles are <summary> elements holding only an icon: give each
// an accessible name (screen readers announce it; axe-core's summary-name rule).
document.addEventListener("DOMContentLoaded", () => {
  for (const summary of document.querySelectorAll("summary")) {
    if (!summary.textContent.trim() && !summary.hasAttribute("aria-label")) {
      summary.setAttribute("aria-label", "Show or hide the pages of this section");
    }
  }
});
