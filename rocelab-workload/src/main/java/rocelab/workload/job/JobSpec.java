package rocelab.workload.job;

import java.util.List;

/**
 * A job: a name, a layout, a program executed by every rank, how often it runs ({@code warmup} of the
 * {@code iterations} are not counted in the averages), when it starts, and the DSCP of its traffic (-1: the RNIC's
 * default). Each rank starts iteration k+1 when its own part of iteration k is done. An imported program (a SimAI
 * workload file, a Chakra trace) carries {@code notes}: what of its source was read but not modelled, said once.
 */
public record JobSpec(String name, Layout layout, List<Step> program, int iterations, int warmup, long startPs,
        int dscp, List<String> notes) {
    public JobSpec(String name, Layout layout, List<Step> program, int iterations, int warmup, long startPs,
            int dscp) {
        this(name, layout, program, iterations, warmup, startPs, dscp, List.of());
    }

    public JobSpec {
        program = List.copyOf(program);
        notes = List.copyOf(notes);
        if (iterations < 1 || warmup < 0 || warmup >= iterations) {
            throw new IllegalArgumentException("a job needs iterations >= 1 and 0 <= warmup < iterations");
        }
    }
}
