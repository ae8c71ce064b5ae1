package rocelab.bench;

import java.util.Locale;
import java.util.SplittableRandom;
import rocelab.observe.victim.FlowWaits;

/**
 * What one wait costs {@link FlowWaits} when a million flows wait: the 1,024-host all-to-all reports about one wait
 * behind a pause per event (17.5 million in its first 600 us), nearly every one a new part of its flow's wait at its
 * hop, each credited to a root. This replays such a stream without the rest of the run: a random flow of a million,
 * one of its two hops, one of its roots (a few thousand transmitters and roots in all), every wait past the last one
 * at its hop, so that each is counted and credited. The flows' slots then fill much of a gigabyte, as in the run,
 * and what one wait costs is the cache lines it touches there.
 *
 * <p>Usage: {@code java -XX:+UseSerialGC -XX:+UseTransparentHugePages -Xmx3g -cp rocelab-bench/target/benchmarks.jar
 * rocelab.bench.FlowWaitsCost [FLOWS [WAITS]]} (default: 1,047,552 flows, 20,000,000 waits per pass). Prints the ns
 * per wait of three passes after one that fills the slots.
 */
public final class FlowWaitsCost {
    private static final int TRANSMITTERS = 2_300;
    private static final int ROOT_PORTS = 2_000;

    private FlowWaitsCost() {}

    public static void main(String[] args) {
        int flows = args.length > 0 ? Integer.parseInt(args[0]) : 1_047_552;
        long waits = args.length > 1 ? Long.parseLong(args[1]) : 20_000_000L;
        FlowWaits fw = new FlowWaits((qp, kind, node, port) -> FlowWaits.Way.of(((qp + node + port) & 3) == 0), 4);
        fw.expectFlows(flows);
        long[] clock = new long[flows];
        SplittableRandom random = new SplittableRandom(1);
        long checksum = 0;
        for (int pass = 0; pass < 4; pass++) {
            long t0 = System.nanoTime();
            for (long k = 0; k < waits; k++) {
                int flow = random.nextInt(flows);
                // Two hops per flow, fixed by the flow; eight roots per flow, spread over the fabric's.
                int hop = (flow * 31 + random.nextInt(2) * 977) % TRANSMITTERS;
                int root = (flow * 17 + random.nextInt(8) * 251) % ROOT_PORTS;
                long from = clock[flow];
                long to = from + 1 + random.nextInt(1_000);
                clock[flow] = to;
                fw.add(flow, flow, hop >> 6, hop & 63, false, from, to, 0, root >> 6, root & 63, 1 + (root & 1));
            }
            double ns = (System.nanoTime() - t0) / (double) waits;
            checksum += fw.waitPs(random.nextInt(flows));
            System.out.printf(Locale.ROOT, "pass %d: %6.1f ns per wait%s%n", pass, ns, pass == 0 ? " (fills)" : "");
        }
        System.out.println("checksum " + checksum);
    }
}
