package rocelab.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import rocelab.observe.RunResult;
import rocelab.observe.output.RunWriter;
import rocelab.observe.output.SummaryText;
import rocelab.scenario.ScenarioConfig;
import rocelab.scenario.Simulation;
import rocelab.scenario.read.ScenarioException;
import rocelab.scenario.read.ScenarioReader;

/** {@code rocelab run}: simulates a scenario (or the built-in demo), prints a summary and writes the output folder. */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = {"Simulate a scenario packet by packet, print a summary and write an output folder.",
            "With no SCENARIO, runs the built-in demo; --example NAME runs a built-in example."})
final class RunCommand implements Callable<Integer> {
    /** The built-in example names, for --help and completion. */
    static final class ExampleNames implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return ScenarioReader.exampleNames().iterator();
        }
    }

    @Parameters(index = "0", arity = "0..1", paramLabel = "SCENARIO", description = "Scenario YAML file.")
    Path scenario;

    @Option(names = "--example", paramLabel = "NAME",
            description = "Run a built-in example instead of a file: ${COMPLETION-CANDIDATES}.",
            completionCandidates = ExampleNames.class)
    String example;

    @Option(names = "--out", paramLabel = "DIR", description = "Output folder (default: out/<scenario name>/).")
    Path out;

    @Option(names = "--seed", paramLabel = "N", description = "Override the scenario's seed.")
    Long seed;

    @Option(names = {"-q", "--quiet"}, description = "Print nothing but errors.")
    boolean quiet;

    @Option(names = "--debug", description = "Show stack traces of internal errors.")
    boolean debug;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        PrintWriter outWriter = spec.commandLine().getOut();
        ScenarioConfig config;
        try {
            ScenarioReader reader = new ScenarioReader();
            if (example != null && scenario != null) {
                err.println("error: give either a SCENARIO file or --example, not both");
                return RocelabCommand.EXIT_BAD_INPUT;
            }
            if (example != null && !ScenarioReader.exampleNames().contains(example)) {
                err.println("error: --example '" + example + "' is not a built-in example; expected one of: "
                        + String.join(", ", ScenarioReader.exampleNames()));
                return RocelabCommand.EXIT_BAD_INPUT;
            }
            config = example != null ? reader.readExample(example)
                    : scenario == null ? reader.readDemo() : reader.read(scenario);
        } catch (ScenarioException e) {
            err.println("error: " + e.getMessage());
            return RocelabCommand.EXIT_BAD_INPUT;
        }
        if (seed != null) {
            config = config.withSeed(seed);
        }
        Path dir = out != null ? out : Path.of("out", config.name());
        String unusable = OutputFolder.problem(dir);
        if (unusable != null) {
            err.println("error: " + (out != null ? "--out " : "output folder ") + dir + ": " + unusable);
            return RocelabCommand.EXIT_BAD_INPUT;
        }
        Simulation simulation = Simulation.assemble(config);
        Progress progress = Progress.forTerminal(quiet);
        RunResult result = simulation.run(progress);
        progress.done();
        try {
            new RunWriter().write(dir, result, Map.of("scenario_file",
                    config.source() == null ? "(built-in demo)" : config.source().toString()));
        } catch (java.io.IOException e) {
            err.println("error: cannot write the output folder " + dir + ": " + e.getMessage());
            return RocelabCommand.EXIT_BAD_INPUT;
        }
        if (!quiet) {
            outWriter.print(SummaryText.render(result, dir.toString()));
            outWriter.flush();
        }
        return 0;
    }
}
