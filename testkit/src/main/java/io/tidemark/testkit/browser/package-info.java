/**
 * Pages in a real browser: {@link io.tidemark.testkit.browser.HeadlessChromium}. Needs {@code
 * selenium-chrome-driver} on the class path.
 */
@NullMarked
package io.tidemark.testkit.browser;

import org.jspecify.annotations.NullMarked;
