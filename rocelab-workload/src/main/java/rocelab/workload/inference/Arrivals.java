package rocelab.workload.inference;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

/** When requests arrive: a Poisson process drawn from the scenario's random streams, or a trace. */
public sealed interface Arrivals permits Arrivals.Poisson, Arrivals.Trace {
    /** One request: its arrival time and, from a trace, its first LLM call's tokens (-1: the template's). */
    record Arrival(long atPs, long promptTokens, int outputTokens) {}

    /** The arrivals in time order; {@code random} is only used by the Poisson process. */
    List<Arrival> draw(SplittableRandom random);

    /**
     * Poisson arrivals at {@code ratePerSecond} from {@code startPs}: exponential gaps, until {@code durationPs} has
     * passed (0: no limit) or {@code count} requests have arrived (0: no limit); at least one limit is set.
     */
    record Poisson(double ratePerSecond, long startPs, long durationPs, int count) implements Arrivals {
        public Poisson {
            if (!(ratePerSecond > 0) || startPs < 0 || durationPs < 0 || count < 0) {
                throw new IllegalArgumentException("Poisson arrivals need a positive rate and non-negative limits");
            }
            if (durationPs == 0 && count == 0) {
                throw new IllegalArgumentException("Poisson arrivals need a duration or a count");
            }
        }

        @Override
        public List<Arrival> draw(SplittableRandom random) {
            List<Arrival> out = new ArrayList<>();
            double meanGapPs = 1e12 / ratePerSecond;
            double t = 0;
            while (count == 0 || out.size() < count) {
                // Inverse transform of an exponential gap; 1 - u is in (0, 1], so the log is finite.
                t += -Math.log(1.0 - random.nextDouble()) * meanGapPs;
                if (durationPs > 0 && t >= durationPs) {
                    break;
                }
                out.add(new Arrival(startPs + (long) t, -1, -1));
            }
            return out;
        }
    }

    /** Requests read from a trace, sorted by arrival (ties keep file order). */
    record Trace(String file, List<Arrival> requests) implements Arrivals {
        public Trace {
            requests = requests.stream().sorted(Comparator.comparingLong(Arrival::atPs)).toList();
            if (requests.isEmpty()) {
                throw new IllegalArgumentException("a trace needs at least one request");
            }
        }

        @Override
        public List<Arrival> draw(SplittableRandom random) {
            return requests;
        }
    }
}
