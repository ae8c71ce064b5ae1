package rocelab.scenario.lint;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import rocelab.scenario.read.ScenarioReader;

/**
 * The demo is lint-clean, and every shipped example has exactly the errors it is meant to show (the what-if
 * examples their rule, the deadlock ring its cycle), so an example never carries an unexplained error.
 */
class ShippedScenariosLintTest {
    private static final Map<String, Set<String>> INTENDED_ERRORS = Map.of(
            "lint-l1-dscp-mismatch", Set.of("L1"),
            "lint-l2-nic-pfc-off", Set.of("L2"),
            "lint-l3-headroom", Set.of("L3"),
            "lint-l5-ecn-above-xoff", Set.of("L5"),
            "lint-l7-trust-pcp", Set.of("L7"),
            "lint-l9-np-off", Set.of("L9"),
            "lint-l10-cnp-in-data-queue", Set.of("L10"),
            "lint-l11-mtu", Set.of("L11"),
            "pfc-deadlock-ring", Set.of("L14"));

    @Test
    void shouldFindNothingInTheDemo() {
        assertThat(Lint.check(new ScenarioReader().readDemo()).findings()).isEmpty();
    }

    @Test
    void shouldFindOnlyTheIntendedErrorsInEachExample() throws Exception {
        ScenarioReader reader = new ScenarioReader();
        assertThat(ScenarioReader.exampleNames()).containsAll(INTENDED_ERRORS.keySet());
        for (String name : ScenarioReader.exampleNames()) {
            LintReport r = Lint.check(reader.readExample(name));
            Set<String> errors = new TreeSet<>();
            r.findings().stream().filter(f -> f.severity() == Severity.ERROR).forEach(f -> errors.add(f.rule()));
            assertThat(errors).as(name).isEqualTo(INTENDED_ERRORS.getOrDefault(name, Set.of()));
        }
    }
    /**
     * An example's header that says what the lint finds ({@code # Lint: L6 info ... and L12 warning ...}) names rules
     * the lint does find there: ring-allreduce's said "L12 warning (no PFC watchdog)" after the watchdog was turned on.
     */
    @Test
    void shouldFindEveryRuleAnExamplesHeaderNames() throws Exception {
        ScenarioReader reader = new ScenarioReader();
        Pattern rule = Pattern.compile("\\bL\\d+\\b");
        int checked = 0;
        for (String name : ScenarioReader.exampleNames()) {
            Path file = Path.of("..", "scenarios", "examples", name + ".yaml");
            String claim = Files.readAllLines(file).stream().takeWhile(l -> l.startsWith("#"))
                    .filter(l -> l.startsWith("# Lint")).findFirst().orElse(null);
            if (claim == null) {
                continue;
            }
            Set<String> found = new TreeSet<>();
            Lint.check(reader.readExample(name)).findings().forEach(f -> found.add(f.rule()));
            var m = rule.matcher(claim);
            while (m.find()) {
                assertThat(found).as("%s's header: %s", name, claim).contains(m.group());
                checked++;
            }
        }
        assertThat(checked).as("rules named in headers").isPositive();
    }
}
