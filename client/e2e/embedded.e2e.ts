// The web client as the binary serves it without a folder given (the client built into
// it): the page and its assets with their types and caching, any other address the
// page itself, and nothing outside the client.

import { expect, test } from "@playwright/test";

test("the binary serves its built-in client", async ({ request, page }) => {
  const index = await request.get("/");
  expect(index.status()).toBe(200);
  expect(index.headers()["content-type"]).toBe("text/html; charset=utf-8");
  expect(index.headers()["cache-control"]).toBe("no-cache");
  const html = await index.text();
  const script = /src="\/(assets\/[^"]+\.js)"/.exec(html)?.[1];
  expect(script, "the page loads its script").toBeTruthy();
  const asset = await request.get(`/${script}`);
  expect(asset.headers()["content-type"]).toBe("text/javascript; charset=utf-8");
  expect(asset.headers()["cache-control"]).toContain("immutable");
  // Another address is the one page (it routes by the fragment); nothing outside it.
  for (const path of ["/some/where", "/assets/none.js", "/../../Cargo.toml", "/assets/..%2f..%2f..%2fCargo.toml"]) {
    const other = await request.get(path);
    expect(other.status(), path).toBe(200);
    expect(await other.text(), path).toBe(html);
  }
  // And it runs: the lobby comes up.
  await page.goto("/");
  await expect(page.getByTestId("connection")).toHaveAttribute("data-state", "open");
});
