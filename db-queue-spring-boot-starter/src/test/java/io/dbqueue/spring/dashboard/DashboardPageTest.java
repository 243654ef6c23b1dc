package io.dbqueue.spring.dashboard;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.web.servlet.function.RouterFunction;

import static org.assertj.core.api.Assertions.assertThat;

/** The page's endpoint URL as a script literal, and the page only where it is enabled. */
class DashboardPageTest {

    @Test
    void theEndpointBecomesAStringLiteralThatCannotLeaveTheScript() {
        assertThat(DashboardPage.jsString("/actuator/dbqueue")).isEqualTo("\"/actuator/dbqueue\"");
        assertThat(DashboardPage.jsString("a\"b\\c</script><x>&\n"))
                .isEqualTo("\"a\\\"b\\\\c\\u003c/script\\u003e\\u003cx\\u003e\\u0026\\u000a\"");
    }

    @Test
    void theEndpointIsWrittenIntoThePage() {
        assertThat(new DashboardPage("https://ops.example/actuator/dbqueue", false).html("/app"))
                .contains("const ENDPOINT = \"https://ops.example/actuator/dbqueue\";").doesNotContain("@ENDPOINT@");
    }

    @Test
    void anEndpointPathOfTheApplicationIsReadUnderThePagesContextPath() {
        DashboardPage page = new DashboardPage("/actuator/queues", true);
        assertThat(page.html("/app")).contains("const ENDPOINT = \"/app/actuator/queues\";");
        assertThat(page.html("")).contains("const ENDPOINT = \"/actuator/queues\";");
    }

    @Test
    void noPageUnlessEnabled() {
        new WebApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(DbQueueDashboardAutoConfiguration.class))
                .run(context -> assertThat(context).doesNotHaveBean(RouterFunction.class));
    }
}
