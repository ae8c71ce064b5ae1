package rocelab.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;
import rocelab.scenario.ScenarioConfig;
import rocelab.scenario.read.ScenarioException;
import rocelab.scenario.read.ScenarioReader;
import rocelab.workload.job.Dim;
import rocelab.workload.job.JobSpec;
import rocelab.workload.job.ProgramText;

/**
 * {@code rocelab expand SCENARIO}: each job's program as the simulator runs it, with generators expanded, in the
 * scenario's own step language.
 */
@Command(name = "expand", mixinStandardHelpOptions = true,
        description = "Print each job's program as it runs: a generator (e.g. megatron) expanded into steps"
                + " (compute, collectives, send/recv) in the scenario's step language, ready to read or to paste.")
final class ExpandCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "SCENARIO", arity = "0..1",
            description = "Scenario file (default: none; use --example).")
    Path scenario;

    @Option(names = "--example", paramLabel = "NAME", description = "A built-in example scenario instead of a file.",
            completionCandidates = RunCommand.ExampleNames.class)
    String example;

    @Option(names = "--job", paramLabel = "NAME", description = "Only this job.")
    String job;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        PrintWriter out = spec.commandLine().getOut();
        if ((scenario == null) == (example == null)) {
            err.println("error: give a SCENARIO file or --example NAME");
            return RocelabCommand.EXIT_BAD_INPUT;
        }
        ScenarioConfig config;
        try {
            ScenarioReader reader = new ScenarioReader();
            config = example != null ? reader.readExample(example) : reader.read(scenario);
        } catch (ScenarioException e) {
            err.println("error: " + e.getMessage());
            return RocelabCommand.EXIT_BAD_INPUT;
        }
        if (config.jobs().isEmpty()) {
            err.println("error: scenario '" + config.name() + "' has no jobs; expected a scenario with a jobs: list");
            return RocelabCommand.EXIT_BAD_INPUT;
        }
        boolean found = false;
        for (JobSpec j : config.jobs()) {
            if (job != null && !job.equals(j.name())) {
                continue;
            }
            found = true;
            String degrees = Arrays.stream(Dim.values()).filter(d -> j.layout().degree(d) > 1)
                    .map(d -> d.key() + ": " + j.layout().degree(d)).collect(Collectors.joining(", "));
            out.printf("# job %s: %d ranks, parallelism {%s}, order %s, %d iteration(s)%n", j.name(), j.layout().size(),
                    degrees, j.layout().order().stream().map(Dim::key).toList(), j.iterations());
            for (String note : j.notes()) {
                out.println("# imported: " + note);
            }
            out.println("program:");
            out.print(ProgramText.render(j.program()));
            out.flush();
        }
        if (!found) {
            err.println("error: no job named '" + job + "'; expected one of: "
                    + config.jobs().stream().map(JobSpec::name).collect(Collectors.joining(", ")));
            return RocelabCommand.EXIT_BAD_INPUT;
        }
        return 0;
    }
}
