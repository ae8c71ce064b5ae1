package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import rocelab.observe.RunResult;
import rocelab.observe.credit.CreditLog;
import rocelab.observe.ecmp.EcmpLog;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.pfc.PfcLog;
import rocelab.scenario.read.ScenarioReader;

/**
 * A run hands its flow records to its listener before it waits for the ideal figures, so the command can start
 * flows.csv while they are made: the records handed out must be exactly what the result holds (the same list, PFC
 * log, end and model), or the file written early would not be the result's.
 */
class EarlyFlowRecordsTest {
    /** What the listener heard, in order: phases by name, and "flows" for the records. */
    private static final class Heard implements ProgressListener {
        final List<String> calls = new ArrayList<>();
        List<FlowRecord> flows;
        PfcLog pfcLog;
        long endPs = -1;
        boolean packetLevel;

        @Override
        public void onProgress(RunProgress progress) {}

        @Override
        public void onPhase(String name) {
            calls.add(name);
        }

        @Override
        public void onFlowRecords(List<FlowRecord> f, PfcLog pfc, CreditLog credits, EcmpLog ecmp, long end,
                boolean packets) {
            calls.add("flows");
            flows = f;
            pfcLog = pfc;
            endPs = end;
            packetLevel = packets;
        }
    }

    private static void assertHandsOutTheResultsRecords(Simulation s) {
        Heard heard = new Heard();
        RunResult r = s.run(heard);

        assertThat(heard.calls).as("the records come once, after the loop and before the ideal figures' wait")
                .containsExactly("loop", "flows", "run's records", "ideal figures wait");
        assertThat(heard.flows).as("the result's own list").isSameAs(r.flows()).isNotEmpty();
        assertThat(heard.pfcLog).isSameAs(r.pfcLog());
        assertThat(heard.endPs).isEqualTo(r.simulatedPs());
        assertThat(heard.packetLevel).isEqualTo(r.packetLevel());
    }

    @Test
    void shouldHandOutThePacketLevelRunsRecordsWithItsPfcLog() throws Exception {
        ScenarioConfig config = new ScenarioReader().readExample("lossless-dcqcn");
        Simulation s = Simulation.assemble(config, Simulation.Model.PACKET, 1);
        assertThat(s.pfcLog()).as("a lossless run has a PFC log, which flows.csv's victim columns read").isNotNull();

        assertHandsOutTheResultsRecords(s);
    }

    @Test
    void shouldHandOutTheFlowLevelRunsRecords() throws Exception {
        ScenarioConfig config = new ScenarioReader().readExample("train-3d-rail");

        assertHandsOutTheResultsRecords(Simulation.assemble(config, Simulation.Model.FLOW, 1));
    }
}
