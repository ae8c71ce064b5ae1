package rocelab.workload.job;

import java.util.List;

/**
 * A job: a name, a layout, a program executed by every rank, how often it runs ({@code warmup} of the
 * {@code iterations} are not counted in the averages), when it starts, and the DSCP of its traffic (-1: the RNIC's
 * default). Each rank starts iteration k+1 when its own part of iteration k is done.
 */
public record JobSpec(String name, Layout layout, List<Step> program, int iterations, int warmup, long startPs,
        int dscp) {
    public JobSpec {
        program = List.copyOf(program);
        if (iterations < 1 || warmup < 0 || warmup >= iterations) {
            throw new IllegalArgumentException("a job needs iterations >= 1 and 0 <= warmup < iterations");
        }
    }
}
