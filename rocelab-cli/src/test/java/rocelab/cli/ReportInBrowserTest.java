package rocelab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Opens real reports in headless Chromium (Debian's {@code chromium}, installed by .ci/run): the demo, a job
 * (train-3d-rail), an inference service (agentic-inference) and a comparison (infiniband-incast). The page records
 * script errors in #js-errors and each chart writes how many points or bars it drew into data-drawn; every chart
 * must have drawn every point it was given, and there must be no error. Each chart also writes how many of its axis
 * texts (lane names, y titles), measured in the browser's font, had to be cut short to fit into data-shortened: none
 * may be. A screenshot of each report is kept under target/browser/.
 *
 * <p>Skipped when no chromium is installed, unless ROCELAB_REQUIRE_BROWSER is set (as .ci/run does): then a missing
 * browser fails the test.
 */
class ReportInBrowserTest {
    private static final Path ARTIFACTS = Path.of("target", "browser");
    private static String browser;

    @BeforeAll
    static void findBrowser() {
        for (String name : new String[] {"chromium", "chromium-browser", "google-chrome"}) {
            for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
                if (Files.isExecutable(Path.of(dir, name))) {
                    browser = Path.of(dir, name).toString();
                    return;
                }
            }
        }
        boolean required = System.getenv("ROCELAB_REQUIRE_BROWSER") != null;
        assertThat(required).as("ROCELAB_REQUIRE_BROWSER is set but no chromium is installed").isFalse();
        Assumptions.assumeTrue(false, "no chromium on PATH: the report's browser test is skipped (apt-get install"
                + " chromium)");
    }

    @Test
    void shouldDrawEveryChartOfEveryKindOfReportWithoutErrors() throws Exception {
        Path root = ARTIFACTS.toAbsolutePath();
        Files.createDirectories(root);
        List<String[]> reports = List.of(
                new String[] {"demo", "run", "--out", root.resolve("demo").toString(), "-q"},
                new String[] {"train-3d-rail", "run", "--example", "train-3d-rail", "--out",
                    root.resolve("train-3d-rail").toString(), "-q"},
                new String[] {"agentic-inference", "run", "--example", "agentic-inference", "--out",
                    root.resolve("agentic-inference").toString(), "-q"},
                new String[] {"compare", "compare", "--example", "infiniband-incast", "--out",
                    root.resolve("compare").toString(), "-q"},
                // Poisson traffic: the slowdown-by-size chart (lines over a logarithmic size axis).
                new String[] {"websearch-load", "run", "--example", "websearch-load", "--out",
                    root.resolve("websearch-load").toString(), "-q"});
        for (String[] r : reports) {
            String[] args = Arrays.copyOfRange(r, 1, r.length);
            CliRun run = CliRun.of(args);
            assertThat(run.exitCode()).as("%s: %s", r[0], run.err()).isZero();
            Path html = root.resolve(r[0]).resolve("report.html");
            String dom = dump(html);
            Matcher errors = Pattern.compile("<pre id=\"js-errors\"[^>]*>([^<]*)</pre>").matcher(dom);
            assertThat(errors.find()).as("%s: the error box is in the page", r[0]).isTrue();
            assertThat(errors.group(1)).as("%s: script errors", r[0]).isEmpty();
            Matcher charts = Pattern.compile("id=\"drawn-([^\"]+)\" data-drawn=\"(\\d+)\" data-points=\"(\\d+)\""
                    + "(?: data-shortened=\"(\\d+)\")?").matcher(dom);
            List<String> seen = new ArrayList<>();
            while (charts.find()) {
                seen.add(charts.group(1));
                assertThat(Integer.parseInt(charts.group(3))).as("%s %s: points given", r[0], charts.group(1))
                        .isPositive();
                assertThat(charts.group(2)).as("%s %s: points drawn", r[0], charts.group(1))
                        .isEqualTo(charts.group(3));
                // Axis texts measured in the browser's own font: every lane name and y title fits as it is.
                assertThat(charts.group(4)).as("%s %s: axis texts cut short to fit", r[0], charts.group(1))
                        .isEqualTo("0");
            }
            assertThat(seen).as("%s: charts drawn", r[0]).hasSizeGreaterThanOrEqualTo(3);
            if (r[0].equals("websearch-load")) {
                assertThat(seen).as("the slowdown by flow size").contains("slowdown-by-size");
            }
            screenshot(html, root.resolve(r[0] + ".png"));
        }
    }

    private static String dump(Path html) throws Exception {
        Process p = new ProcessBuilder(browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                "--virtual-time-budget=5000", "--window-size=1200,900", "--dump-dom", html.toUri().toString())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String dom = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("chromium finished").isTrue();
        return dom;
    }

    private static void screenshot(Path html, Path png) throws Exception {
        Process p = new ProcessBuilder(browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                "--virtual-time-budget=5000", "--window-size=1200,2400", "--screenshot=" + png,
                html.toUri().toString()).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("chromium finished").isTrue();
        assertThat(png).as("screenshot").isNotEmptyFile();
    }
}
