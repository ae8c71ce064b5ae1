package rocelab.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import rocelab.scenario.ScenarioConfig;
import rocelab.scenario.lint.Lint;
import rocelab.scenario.lint.LintReport;
import rocelab.scenario.read.ScenarioException;

/** {@code rocelab lint}: checks QoS, ECN and PFC consistency along every path of a scenario, without running it. */
@Command(name = "lint", mixinStandardHelpOptions = true,
        description = {"Check that the fabric is configured consistently along every path the traffic can take"
                + " (DSCP classes, PFC, headroom, ECN, CNP priority, MTU, watchdog, buffer-dependency cycles).",
            "Exit code 0: no errors (warnings allowed); 1: errors found; 2: bad input."})
final class LintCommand implements Callable<Integer> {
    @Parameters(index = "0", arity = "0..1", paramLabel = "SCENARIO", description = "Scenario YAML file.")
    Path scenario;

    @Option(names = "--example", paramLabel = "NAME", description = "Lint a built-in example instead of a file.",
            completionCandidates = RunCommand.ExampleNames.class)
    String example;

    @Option(names = "--json", description = "Print the findings as JSON.")
    boolean json;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        PrintWriter out = spec.commandLine().getOut();
        ScenarioConfig config;
        if (example != null && scenario != null) {
            err.println("error: give either a SCENARIO file or --example, not both");
            return RocelabCommand.EXIT_BAD_INPUT;
        }
        try {
            config = ScenarioSource.read(scenario, example);
        } catch (ScenarioException e) {
            err.println("error: " + e.getMessage());
            return RocelabCommand.EXIT_BAD_INPUT;
        }
        LintReport report = Lint.check(config);
        out.print(json ? report.json() : report.text());
        out.flush();
        return report.hasErrors() ? 1 : 0;
    }
}
