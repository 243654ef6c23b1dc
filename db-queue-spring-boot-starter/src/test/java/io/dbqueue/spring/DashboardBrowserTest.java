package io.dbqueue.spring;

import io.dbqueue.postgres.PostgresServer;
import io.dbqueue.queue.FoundTask;
import io.dbqueue.queue.Layout;
import io.dbqueue.queue.Task;
import io.dbqueue.queue.TaskBatch;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.NoSuchElementException;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

import static io.dbqueue.spring.StarterTestSupport.createTable;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The dashboard in a real browser (Debian's Chromium through its ChromeDriver; skipped, saying so, where they are not
 * installed): a task fails until it is dead-lettered, shows on the page with its error, is requeued with the page's
 * button and then handled; the pause button pauses the queue for every instance. Saves the page's screenshot as
 * {@code target/dashboard.png}.
 */
class DashboardBrowserTest {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private static ConfigurableApplicationContext app;
    private static WebDriver browser;

    /** Fails every task while {@link #failing}; records the ids it finished. */
    static final class FlakyConsumer implements QueueConsumer {
        final AtomicBoolean failing = new AtomicBoolean(true);
        final Set<Long> finished = ConcurrentHashMap.newKeySet();

        @Override
        public String queueId() {
            return "jobs";
        }

        @Override
        public void handle(TaskBatch batch) {
            for (Task task : batch.tasks()) {
                if (failing.get()) {
                    batch.fail(task, "payment service unavailable");
                } else {
                    finished.add(task.id());
                }
            }
        }
    }

    /** Finishes every task of the queue that keeps its history (a task left unanswered is finished). */
    static final class KeptConsumer implements QueueConsumer {
        @Override
        public String queueId() {
            return "kept";
        }

        @Override
        public void handle(TaskBatch batch) {
        }
    }

    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class App {
        @Bean
        FlakyConsumer flakyConsumer() {
            return new FlakyConsumer();
        }

        @Bean
        KeptConsumer keptConsumer() {
            return new KeptConsumer();
        }
    }

    @BeforeAll
    static void start() {
        assumeTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
                "the dashboard's browser test needs Debian's chromium and chromium-driver (" + CHROMIUM + ", "
                        + CHROMEDRIVER + "); apt-get install chromium chromium-driver");
        PostgresServer server = PostgresServer.shared();
        String table = createTable(Layout.DBQ_SEQ);
        app = new SpringApplicationBuilder(App.class).properties(
                "server.address=127.0.0.1", "server.port=0",
                "spring.datasource.url=" + StarterTestSupport.jdbcUrl(),
                "spring.datasource.username=" + server.user(), "spring.datasource.password=" + server.password(),
                "management.endpoints.web.exposure.include=dbqueue",
                "dbq.dashboard.enabled=true", "dbq.endpoint.write-enabled=true",
                "dbq.queues.jobs.table=" + table, "dbq.queues.jobs.layout=dbq_seq", "dbq.queues.jobs.wakeup=notify",
                "dbq.queues.jobs.retry.max-attempts=2", "dbq.queues.jobs.retry.interval=10ms",
                "dbq.queues.kept.table=" + table, "dbq.queues.kept.layout=dbq_seq", "dbq.queues.kept.history=1h",
                "dbq.queues.parked.table=" + table, "dbq.queues.parked.layout=dbq_seq").run();
        ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM.toFile()).addArguments("--headless=new",
                "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--window-size=1200,540");
        browser = new ChromeDriver(new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
                .build(), options);
    }

    @AfterAll
    static void stop() {
        if (browser != null) {
            browser.quit();
        }
        if (app != null) {
            SpringApplication.exit(app);
        }
    }

    @Test
    void aDeadLetterShownOnThePageIsRequeuedByItsButtonAndHandled() throws IOException {
        FlakyConsumer consumer = app.getBean(FlakyConsumer.class);
        DbQueues queues = app.getBean(DbQueues.class);
        long id = queues.producer("jobs").enqueue("{\"order\": 7}");
        browser.get(pageUrl());
        WebDriverWait wait = new WebDriverWait(browser, TIMEOUT);

        wait.until(ExpectedConditions.textToBe(By.cssSelector("#queues tr[data-queue='jobs'] td.dead"), "1"));
        wait.until(driver -> clicked(By.cssSelector("#queues tr[data-queue='jobs'] button.show-dead")));
        String rowCss = "#dead-letters tr[data-id='" + id + "']";
        By row = By.cssSelector(rowCss);
        // The page redraws its tables every few seconds: each check finds its element afresh.
        wait.until(ExpectedConditions.textToBe(By.cssSelector(rowCss + " td.error"), "payment service unavailable"));
        wait.until(ExpectedConditions.textToBe(By.cssSelector(rowCss + " td.payload"), "{\"order\": 7}"));
        screenshot();

        consumer.failing.set(false);
        wait.until(driver -> clicked(By.cssSelector(rowCss + " button.requeue")));
        wait.until(driver -> consumer.finished.contains(id));
        wait.until(ExpectedConditions.invisibilityOfElementLocated(row));
        wait.until(ExpectedConditions.textToBe(By.cssSelector("#queues tr[data-queue='jobs'] td.dead"), "0"));
        assertThat(queues.deadLetters("jobs").count()).isZero();
    }

    @Test
    void thePauseButtonPausesTheQueueAndResumeRestartsIt() {
        browser.get(pageUrl());
        WebDriverWait wait = new WebDriverWait(browser, TIMEOUT);
        By state = By.cssSelector("#queues tr[data-queue='jobs'] td.state");
        wait.until(ExpectedConditions.textToBe(state, "running"));
        wait.until(driver -> clicked(By.cssSelector("#queues tr[data-queue='jobs'] button.pause")));
        wait.until(ExpectedConditions.textToBe(state, "paused"));
        assertThat(app.getBean(DbQueues.class).admin("jobs").stats().paused()).isTrue();
        wait.until(driver -> clicked(By.cssSelector("#queues tr[data-queue='jobs'] button.resume")));
        wait.until(ExpectedConditions.textToBe(state, "running"));
        assertThat(app.getBean(DbQueues.class).admin("jobs").stats().paused()).isFalse();
    }

    @Test
    void aTaskIsFoundByItsKey() {
        // A queue without a consumer, so that the task waits whatever the other tests do.
        long id = app.getBean(DbQueues.class).producer("parked").enqueueOnce("order-8", "later").id();
        browser.get(pageUrl());
        WebDriverWait wait = new WebDriverWait(browser, TIMEOUT);
        wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#lookup-queue option[value='parked']")));
        browser.findElement(By.cssSelector("#lookup-queue option[value='parked']")).click();
        browser.findElement(By.cssSelector("#lookup-by option[value='key']")).click();
        browser.findElement(By.id("lookup-value")).sendKeys("order-8");
        browser.findElement(By.cssSelector("#lookup button[type='submit']")).click();
        WebElement result = browser.findElement(By.id("lookup-result"));
        wait.until(driver -> result.getText().startsWith("Task " + id));
        assertThat(result.getText()).contains(": WAITING since").contains("payload: later");
    }

    @Test
    void aFinishedTaskIsFoundInTheHistory() {
        long id = app.getBean(DbQueues.class).producer("kept").enqueue("shipped");
        WebDriverWait wait = new WebDriverWait(browser, TIMEOUT);
        wait.until(driver -> app.getBean(DbQueues.class).admin("kept").find(id)
                .filter(t -> t.state() == FoundTask.State.DONE).isPresent());
        browser.get(pageUrl());
        wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#lookup-queue option[value='kept']")));
        browser.findElement(By.cssSelector("#lookup-queue option[value='kept']")).click();
        browser.findElement(By.cssSelector("#lookup-by option[value='id']")).click();
        browser.findElement(By.id("lookup-value")).sendKeys(String.valueOf(id));
        browser.findElement(By.cssSelector("#lookup button[type='submit']")).click();
        WebElement result = browser.findElement(By.id("lookup-result"));
        wait.until(driver -> result.getText().startsWith("Task " + id));
        assertThat(result.getText()).contains("DONE, finished at").contains("shipped");
    }

    /** Clicks the element, or returns false when the page redrew it between finding and clicking. */
    private static boolean clicked(By element) {
        try {
            browser.findElement(element).click();
            return true;
        } catch (StaleElementReferenceException | NoSuchElementException e) {
            return false;
        }
    }

    private static String pageUrl() {
        int port = ((WebServerApplicationContext) app).getWebServer().getPort();
        return "http://127.0.0.1:" + port + "/dbqueue";
    }

    private static void screenshot() throws IOException {
        File shot = ((ChromeDriver) browser).getScreenshotAs(OutputType.FILE);
        Files.copy(shot.toPath(), Path.of("target", "dashboard.png"), StandardCopyOption.REPLACE_EXISTING);
    }
}
