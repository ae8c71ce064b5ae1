package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import rocelab.fabric.congestion.RateCause;
import rocelab.fabric.probe.PfcProbe;
import rocelab.fabric.switching.Switch;
import rocelab.observe.RunResult;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.journey.JourneyEvent;
import rocelab.observe.journey.JourneyRecorder;
import rocelab.observe.journey.JourneyText;
import rocelab.observe.pcap.PacketCapture;
import rocelab.scenario.read.ScenarioReader;

/**
 * Causality by identity: a CNP carries the marked packet it answers, the journey's "sent at" of a CNP is the time
 * its first bit went on the wire (as a capture shows it), and every rate change of every congestion control names
 * the cause its control reported, of the kind that control has.
 */
class CausalityTest {
    @TempDir
    Path dir;

    private record Journey(Simulation sim, RunResult run, FlowRecord flow, List<JourneyEvent> events) {
        String text() {
            return new JourneyText(sim.network(), sim.pfcLog()).render(flow, events, -1, 0, Long.MAX_VALUE, 100_000);
        }

        List<JourneyEvent> of(JourneyEvent.Kind kind) {
            return events.stream().filter(e -> e.kind() == kind).toList();
        }
    }

    private static Journey journey(Simulation sim, int flow) {
        JourneyRecorder rec = new JourneyRecorder(sim.network(), sim.driver().queuePair(flow).id(),
                sim.pfcLog() == null ? PfcProbe.NONE : sim.pfcLog());
        rec.attach();
        RunResult r = sim.run(ProgressListener.NONE);
        FlowRecord f = r.flows().get(flow);
        if (f.completed()) {
            rec.completed(f.finishPs(), f.src());
        }
        return new Journey(sim, r, f, rec.events());
    }

    /** Four senders behind leaf1 into h0 behind leaf0: the marks are made at leaf1's uplinks and at leaf0. */
    private static final String INCAST = """
            name: causality
            fabric: {mode: roce-lossless, mtu: 1000}
            topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 4, link: {rate: 100Gbps, delay: 1us}}
            switch: {buffer: 4MB, ecn: {marking: red, kmin: 40KB, kmax: 160KB, pmax: 0.2}}
            nic: {cc: dcqcn, dcqcn: {profile: nvidia}}
            observe: {sample-interval: 0}
            traffic:
              - {kind: incast, senders: 4-7, receiver: 0, size: 600KB}
            """;

    @Test
    void shouldGiveEveryCnpOfTheJourneyTheSendTimeTheCaptureShows() throws IOException {
        Simulation sim = Scenarios.assemble(INCAST);
        int qp = sim.driver().queuePair(0).id();
        PacketCapture capture = new PacketCapture(sim.network(), false, List.of("h0-leaf0"), qp, 0, Long.MAX_VALUE,
                1_000_000);
        Journey j = journey(sim, 0);
        Path pcap = dir.resolve("cnp.pcap");
        capture.write(pcap);
        List<Long> captured = cnpTimesNs(Files.readAllBytes(pcap), Switch.ipOf(0));
        List<JourneyEvent> sent = j.of(JourneyEvent.Kind.CNP_SENT);
        List<JourneyEvent> handled = j.of(JourneyEvent.Kind.CNP_HANDLED);
        assertThat(captured).as("CNPs h0 sent for the flow, in the capture").hasSizeGreaterThan(3);
        assertThat(sent).hasSameSizeAs(captured);
        assertThat(handled).as("lossless: every CNP reaches the sender").hasSameSizeAs(captured);
        String text = j.text();
        for (int i = 0; i < captured.size(); i++) {
            JourneyEvent.Notice atSender = (JourneyEvent.Notice) handled.get(i).cause();
            JourneyEvent.Notice atReceiver = (JourneyEvent.Notice) sent.get(i).cause();
            assertThat(atSender.sentPs() / 1000).as("CNP %d: the journey's sent-at against the capture", i)
                    .isEqualTo(captured.get(i));
            assertThat(atReceiver).as("the sender hears the CNP the receiver sent").isEqualTo(atSender);
            assertThat(sent.get(i).timePs()).isEqualTo(atSender.sentPs());
            assertThat(atSender.number()).isEqualTo(i + 1);
            assertThat(text).contains(String.format(Locale.ROOT, "gets the CNP (sent at %.3f us for PSN %d)",
                    atSender.sentPs() / 1e6, atSender.psn()));
            // The cause it carries is the packet's first mark, as the switch made it.
            JourneyEvent mark = j.events().stream().filter(e -> e.kind() == JourneyEvent.Kind.MARK
                    && e.psn() == atSender.psn()).findFirst().orElseThrow();
            assertThat(atSender.markNode()).isEqualTo(mark.node());
            assertThat(atSender.markPort()).isEqualTo(mark.port());
            assertThat(atSender.markAtPs()).isEqualTo(mark.timePs());
            assertThat(handled.get(i).timePs()).isGreaterThan(atSender.sentPs());
        }
    }

    /** Ethernet/IPv4/UDP/BTH frames with opcode 0x81 (CNP) from {@code srcIp}: their capture times in ns. */
    private static List<Long> cnpTimesNs(byte[] pcap, int srcIp) {
        List<Long> out = new ArrayList<>();
        int i = 24;
        while (i + 16 <= pcap.length) {
            long sec = le32(pcap, i);
            long ns = le32(pcap, i + 4);
            int len = (int) le32(pcap, i + 8);
            int f = i + 16;
            int ethertype = be16(pcap, f + 12);
            int ip = f + 14;
            if (ethertype == 0x8100) {
                ethertype = be16(pcap, f + 16);
                ip = f + 18;
            }
            if (ethertype == 0x0800 && (pcap[ip + 9] & 0xFF) == 17 && be32(pcap, ip + 12) == srcIp
                    && (pcap[ip + 28] & 0xFF) == 0x81) {
                out.add(sec * 1_000_000_000L + ns);
            }
            i = f + len;
        }
        return out;
    }

    private static long le32(byte[] b, int i) {
        return (b[i] & 0xFFL) | (b[i + 1] & 0xFFL) << 8 | (b[i + 2] & 0xFFL) << 16 | (b[i + 3] & 0xFFL) << 24;
    }

    private static int be16(byte[] b, int i) {
        return (b[i] & 0xFF) << 8 | (b[i + 1] & 0xFF);
    }

    private static int be32(byte[] b, int i) {
        return be16(b, i) << 16 | be16(b, i + 2);
    }

    /** The causes each control may report, by family. */
    private static final Map<String, Set<String>> FAMILIES = Map.of(
            "dcqcn", Set.of("notification", "timer", "bytes"),
            "hpcc", Set.of("telemetry", "rtt-sample"),
            "timely", Set.of("rtt"),
            "dctcp", Set.of("ecn-echo", "window", "rtt-sample"),
            "swift", Set.of("delay", "rtt-sample", "loss"),
            "ib-cc", Set.of("notification", "timer", "packet-size"));

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "dcqcn paper    | roce-lossless | cc: dcqcn, dcqcn: {profile: paper}   | ecn: {marking: red, kmin: 40KB, kmax: 160KB, pmax: 0.2}",
        "dcqcn nvidia   | roce-lossless | cc: dcqcn, dcqcn: {profile: nvidia}  | ecn: {marking: red, kmin: 40KB, kmax: 160KB, pmax: 0.2}",
        "dcqcn hpcc-ns3 | roce-lossless | cc: dcqcn, dcqcn: {profile: hpcc-ns3} | ecn: {marking: red, kmin: 40KB, kmax: 160KB, pmax: 0.2}",
        "hpcc           | roce-lossless | cc: hpcc                             | ecn: {marking: none}",
        "timely         | roce-lossless | cc: timely                           | ecn: {marking: none}",
        "dctcp          | roce-lossless | cc: dctcp                            | ecn: {marking: step, k: 40KB}",
        "swift          | roce-lossless | cc: swift                            | ecn: {marking: none}",
        "ib-cc          | infiniband    | cc: ib-cc                            | ",
    })
    void shouldNameACauseOfItsControlsKindForEveryRateChange(String control, String mode, String nic, String sw) {
        String yaml = """
                name: causes
                fabric: {mode: %s, %s}
                topology: {kind: single-switch, hosts: 5, link: {rate: 100Gbps, delay: 1us}}
                %s
                nic: {%s}
                observe: {sample-interval: 0}
                traffic:
                  - {kind: incast, senders: 1-4, receiver: 0, size: 1MB}
                """.formatted(mode, mode.equals("infiniband") ? "mtu: 4096, infiniband: {fecn: {threshold: 32KiB}}"
                        : "mtu: 1000", sw == null ? "" : "switch: {buffer: 4MB, " + sw + "}", nic);
        Journey j = journey(Scenarios.assemble(yaml), 0);
        String family = control.split(" ")[0];
        List<JourneyEvent> rates = j.of(JourneyEvent.Kind.RATE);
        assertThat(rates).as("%s changed the rate of flow 0", control).isNotEmpty();
        List<JourneyEvent> handled = j.of(JourneyEvent.Kind.CNP_HANDLED);
        for (JourneyEvent e : rates) {
            JourneyEvent.RateChange r = (JourneyEvent.RateChange) e.cause();
            assertThat(r.fromBps() != r.toBps() || r.windowBytes() != Long.MAX_VALUE).isTrue();
            assertThat(FAMILIES.get(family)).as("%s reported %s", control, r.cause()).contains(r.cause().family());
            if (r.cause().isNotification()) {
                // By identity: the notification it names reached the sender before (or as) the rate changed.
                assertThat(handled).as("%s names notification %d", control, r.value())
                        .anyMatch(h -> ((JourneyEvent.Notice) h.cause()).number() == r.value()
                                && h.timePs() <= e.timePs());
            }
            if (family.equals("dcqcn")) {
                assertThat(r.toBps() < r.fromBps() ? r.cause().isNotification() : !r.cause().isNotification())
                        .as("DCQCN cuts only on notifications and raises only on its timer or byte counter: %s", r)
                        .isTrue();
            }
        }
        if (!family.equals("hpcc") && !family.equals("timely") && !family.equals("swift")) {
            assertThat(rates).as("%s cut on a notification or an echo", control).anyMatch(e -> {
                RateCause c = ((JourneyEvent.RateChange) e.cause()).cause();
                return c.isNotification() || c == RateCause.ECN_ECHO;
            });
        }
        assertThat(j.text()).doesNotContain("after the CNP at").contains("<- ");
    }

    @Test
    void shouldNameTheTimerWhenDcqcnRecoversInTheLosslessExample() throws Exception {
        Journey j = journey(Simulation.assemble(new ScenarioReader().readExample("lossless-dcqcn")), 3);
        List<JourneyEvent> rises = j.of(JourneyEvent.Kind.RATE).stream()
                .filter(e -> ((JourneyEvent.RateChange) e.cause()).toBps() > ((JourneyEvent.RateChange) e.cause()).fromBps())
                .toList();
        assertThat(rises).as("the rate recovers").isNotEmpty()
                .allMatch(e -> ((JourneyEvent.RateChange) e.cause()).cause().family().equals("timer"));
        String text = j.text();
        assertThat(text).contains("<- rate-increase timer (").doesNotContain("congestion control after the CNP");
    }
}
