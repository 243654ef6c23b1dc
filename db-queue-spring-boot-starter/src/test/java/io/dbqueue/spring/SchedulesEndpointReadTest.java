package io.dbqueue.spring;

import io.dbqueue.DbQueue;
import io.dbqueue.schedule.ScheduleSchema;
import io.dbqueue.spring.actuate.DbQueueEndpointProperties;
import io.dbqueue.spring.actuate.DbQueueSchedulesEndpoint;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;

import javax.sql.DataSource;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The schedules endpoint's reads, pause, resume, delete and refused trigger start nothing: they use what is stored. */
class SchedulesEndpointReadTest {

    /**
     * A read in an instance that defines no schedule, here one whose door is closed, reads the stored schedules and
     * changes nothing. It started the door's schedules: it created the table, started a thread taking ticks, and on a
     * closed door failed.
     */
    @Test
    void aReadStartsNoSchedules() {
        DataSource dataSource = StarterTestSupport.dataSource();
        DbQueue door = DbQueue.builder(dataSource).build();
        door.close();
        ScheduleSchema.drop(dataSource);
        DbQueueSchedulesEndpoint endpoint = new DbQueueSchedulesEndpoint(door, new DbQueueEndpointProperties(true, 5));
        assertThat(endpoint.schedules()).isEmpty();
        assertThat(endpoint.schedule("any")).isNull();
        for (String action : List.of("pause", "resume", "delete")) { // changes of what is stored start nothing either
            assertThat(endpoint.change("any", action, null).affected()).as(action).isZero();
        }
        // a trigger, refused here, started them before its refusal (and without CREATE rights answered 500)
        assertThatThrownBy(() -> endpoint.change("any", "trigger", null)).isInstanceOf(InvalidEndpointRequestException.class)
                .hasMessageContaining("schedule 'any' is not defined in this process");
        assertThat(StarterTestSupport.count("SELECT count(*) FROM pg_class WHERE relname = '" + ScheduleSchema.TABLE
                + "'")).isZero();
    }
}
