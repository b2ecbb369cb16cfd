# A service with a dynamic port, a check, restart and reschedule policies (the shape of Nomad's getting-started example).
job "docs" {
  datacenters = ["dc1"]
  type        = "service"

  constraint {
    attribute = "${attr.kernel.name}"
    value     = "linux"
  }

  update {
    max_parallel     = 2
    min_healthy_time = "15s"
  }

  group "example" {
    count = 3

    network {
      port "http" { static = 8080 }
      port "metrics" {}
    }

    restart {
      attempts = 2
      interval = "30m"
      delay    = "15s"
      mode     = "fail"
    }

    reschedule {
      delay          = "30s"
      delay_function = "exponential"
      max_delay      = "1h"
      unlimited      = true
    }

    ephemeral_disk {
      size    = 500
      sticky  = true
      migrate = true
    }

    service {
      name = "docs-web"
      port = "http"
      tags = ["urlprefix-/"]

      check {
        type     = "http"
        path     = "/health"
        interval = "10s"
        timeout  = "2s"
      }
    }

    task "server" {
      driver = "raw_exec"

      config {
        command = "/usr/local/bin/http-echo"
        args    = ["-listen", ":${NOMAD_PORT_http}", "-text", "hello from ${node.unique.name}"]
      }

      env {
        GREETING = "hi"
      }

      resources {
        cpu    = 200
        memory = 128
      }

      kill_timeout   = "20s"
      kill_signal    = "SIGINT"
      shutdown_delay = "5s"

      logs {
        max_files     = 3
        max_file_size = 5
      }

      meta {
        owner = "platform"
      }
    }
  }
}
