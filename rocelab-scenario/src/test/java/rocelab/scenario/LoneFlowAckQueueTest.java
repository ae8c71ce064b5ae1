package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import rocelab.observe.RunResult;
import rocelab.observe.flow.FlowRecord;

/**
 * A flow alone completes when its last ACK is back, and that ACK can wait behind the message's earlier ACKs. An
 * outside audit's lone 40,968-byte write from a host on a degraded 25G link to a 100G host (400G uplinks): the small
 * last packet reached the receiver queued behind the full one before it, 0.9 ns apart, and its ACK then waited 20.32 ns
 * behind that one's at the sender's 25G link. The run took 21.94144 us, its closed form (flows.csv ideal_fct_us, the
 * flow model and the ideal network alike) said 21.92112 us: a slowdown of 1.0009 for a flow with the fabric to
 * itself. A sender whose own receive pipeline (nic.rx) is slower for its ACKs than its packets come in waits for every
 * ACK in its turn: 10 Gb/s behind a 100G link at MTU 256 took 272.872 us against 109.742 us (x2.49). The closed form
 * now counts the ACKs ahead of the last, and a lone flow takes exactly its closed form at the packet level, the flow
 * level and on the ideal network, on any chain of rates.
 */
class LoneFlowAckQueueTest {
    private static final String SLOW_SENDER = """
            name: slow-sender
            fabric: {mode: roce-lossy, mtu: 4096}
            topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts-per-leaf: 2, link: {rate: 100Gbps, delay: 1us},
                       uplink: {rate: 400Gbps, delay: 1us}}
            links:
              - {a: h0, b: leaf0, rate: 25Gbps}
            traffic:
              - {kind: flow, src: 0, dst: 3, size: 40968B}
            """;

    private static final String SENDER_PIPELINE = """
            name: sender-pipeline
            fabric: {mode: roce-lossy, mtu: 256}
            topology: {kind: single-switch, hosts: 2, link: {rate: 100Gbps, delay: 1us}}
            nics:
              - {hosts: 1, rx: {rate: 10Gbps}}
            traffic:
              - {kind: flow, src: 1, dst: 0, size: 1MB}
            """;

    private static long fct(String yaml, Simulation.Model model) {
        return Simulation.assemble(Scenarios.parse(yaml), model).run(ProgressListener.NONE).flows().get(0).fctPs();
    }

    private static void assertAloneIsItsClosedForm(String yaml) {
        RunResult packet = Simulation.assemble(Scenarios.parse(yaml)).run(ProgressListener.NONE);
        FlowRecord f = packet.flows().get(0);
        assertThat(f.fctPs()).as("packet level alone\n%s", yaml).isEqualTo(f.idealFctPs());
        assertThat(fct(yaml, Simulation.Model.FLOW)).as("flow level alone\n%s", yaml).isEqualTo(f.fctPs());
        assertThat(fct(yaml, Simulation.Model.IDEAL)).as("ideal network alone\n%s", yaml).isEqualTo(f.fctPs());
    }

    @Test
    void shouldCountTheAckOfTheFullPacketBeforeASmallLastOne() {
        RunResult r = Simulation.assemble(Scenarios.parse(SLOW_SENDER)).run(ProgressListener.NONE);
        assertThat(r.flows().get(0).fctPs()).isEqualTo(21_941_440L);
        assertAloneIsItsClosedForm(SLOW_SENDER);
    }

    @Test
    void shouldCountEveryAckThroughASendersSlowReceivePipeline() {
        RunResult r = Simulation.assemble(Scenarios.parse(SENDER_PIPELINE)).run(ProgressListener.NONE);
        assertThat(r.flows().get(0).fctPs()).isEqualTo(272_872_000L);
        assertAloneIsItsClosedForm(SENDER_PIPELINE);
    }

    /**
     * Random chains of one to four switches, every link at its own rate (25 to 800 Gb/s) and delay, forwarding
     * latency, MTU, VLAN tags, ACK coalescing, a slow receive pipeline at either end or none, and sizes from one
     * byte to a few hundred frames: the flow alone takes exactly its closed form in every model.
     */
    @Property(tries = 40, seed = "20261207")
    void shouldGiveALoneFlowOnAnyChainItsClosedFormInEveryModel(@ForAll("chains") String yaml) {
        assertAloneIsItsClosedForm(yaml);
    }

    @Provide
    Arbitrary<String> chains() {
        return Arbitraries.longs().map(LoneFlowAckQueueTest::chain);
    }

    private static final String[] RATES = {"25Gbps", "100Gbps", "200Gbps", "400Gbps", "800Gbps"};
    private static final String[] DELAYS = {"0", "100ns", "1us", "2500ns"};

    static String chain(long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        int switches = 1 + rnd.nextInt(4);
        int mtu = new int[] {256, 1024, 4096}[rnd.nextInt(3)];
        StringBuilder names = new StringBuilder();
        StringBuilder links = new StringBuilder();
        for (int i = 0; i < switches; i++) {
            names.append(i == 0 ? "" : ", ").append("s").append(i + 1);
        }
        for (int i = 0; i <= switches; i++) {
            String a = i == 0 ? "h0" : "s" + i;
            String b = i == switches ? "h1" : "s" + (i + 1);
            links.append("    - {a: ").append(a).append(", b: ").append(b).append(", rate: ")
                    .append(RATES[rnd.nextInt(RATES.length)]).append(", delay: ")
                    .append(DELAYS[rnd.nextInt(DELAYS.length)]).append("}\n");
        }
        long frames = rnd.nextInt(4) == 0 ? 1 + rnd.nextInt(3) : 2 + rnd.nextInt(300);
        long size = Math.max(1, (frames - 1) * mtu + 1 + rnd.nextInt(mtu));
        String nics = switch (rnd.nextInt(4)) {
            case 0 -> "nics:\n  - {hosts: 1, rx: {rate: " + (rnd.nextBoolean() ? "10Gbps" : "50Gbps") + "}}\n";
            case 1 -> "nics:\n  - {hosts: 0, rx: {rate: " + (rnd.nextBoolean() ? "10Gbps" : "50Gbps") + "}}\n";
            default -> "";
        };
        return """
                name: chain
                fabric: {mode: roce-lossless, mtu: MTU, vlan: VLAN}
                topology:
                  kind: custom
                  hosts: 2
                  switches: [NAMES]
                  links:
                LINKS\
                switch: {forwarding-latency: FWD, buffer: 64MB}
                nic: {ack-every: ACK}
                NICS\
                traffic:
                  - {kind: flow, src: 0, dst: 1, size: SIZEB}
                """.replace("MTU", Integer.toString(mtu)).replace("VLAN", Boolean.toString(rnd.nextBoolean()))
                .replace("NAMES", names).replace("LINKS", links)
                .replace("FWD", rnd.nextBoolean() ? "0" : "300ns").replace("ACK", Integer.toString(1 + rnd.nextInt(3)))
                .replace("NICS", nics).replace("SIZE", Long.toString(size));
    }
}
