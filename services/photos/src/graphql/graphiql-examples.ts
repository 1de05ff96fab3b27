// The tabs photos' GraphiQL page (GET /graphql in a browser) opens with: what a dashboard reads from this subgraph.
// tests/graphiql-examples.test.ts validates them against schema/subgraphs/photos.graphql.
import type { GraphiqlExample } from '@tributary/kit';

/** `Authorization` in the headers editor when no demo credential is configured. */
export const GRAPHIQL_AUTHORIZATION_PLACEHOLDER = 'Bearer <access token>';

export const GRAPHIQL_EXAMPLES: readonly GraphiqlExample[] = [
  {
    query: `query TeamProjects {
  photosTeam {
    id
    name
    createdAt
  }
  photosProjects {
    id
    name
    status
    address
    coordinates {
      lat
      lng
      radiusM
    }
    lastActivityAt
  }
}
`,
  },
  {
    query: `query NearbyDecision {
  photosNearbyProjects(lat: -36.8433, lng: 174.7676, accuracyM: 8) {
    decision
    reason
    distanceM
    accuracyThresholdM
    project {
      id
      name
    }
    candidates {
      project {
        name
      }
      distanceM
      radiusM
      couldContain
    }
  }
}
`,
  },
  {
    // The office's view of the field: phones with a stuck upload backlog (queue depth, last heartbeat) and the team's
    // integration tokens (owner or admin). Create one with
    // mutation { createPhotosAccessToken(input: { name: "Reports", abilities: ["photos:read"], expiresInDays: 30 }) { token } }
    // (its secret `token` is shown only in that answer).
    query: `query DevicesAndTokens {
  photosTeam {
    name
    devices {
      deviceId
      name
      platform
      appVersion
      queueDepth
      lastSeenAt
      userName
    }
    accessTokens {
      id
      name
      abilities
      userName
      expiresAt
    }
  }
}
`,
  },
  {
    // The office's open work: checklists with their progress and evidence, and the tasks due soonest. Tick an item with
    // mutation { updatePhotosChecklistItem(id: "1", input: { ticked: true, attachPhotoIds: ["1"] }) { ticked } }
    query: `query OfficeChecklistsAndTasks {
  photosTeam {
    checklists(status: OPEN) {
      total
      items {
        id
        title
        project {
          name
        }
        progress {
          ticked
          total
        }
        items {
          id
          title
          requiresPhoto
          ticked
          assignee {
            name
          }
          evidence {
            note
            photos {
              id
              urls {
                thumb
              }
            }
          }
        }
      }
    }
    tasks(status: OPEN) {
      total
      items {
        id
        title
        overdue
        dueAt
        assignee {
          name
        }
        photo {
          id
          urls {
            thumb
          }
        }
      }
    }
  }
}
`,
  },
  {
    // Reports of each project: status, share state, the PDF's hash and signed download URL, and the manifest (each
    // original's SHA-256). Make one with
    // mutation { createPhotosReport(input: { projectId: "1", title: "Handover", photoIds: ["1", "2", "3"] }) { id status } }
    query: `query ProjectReports {
  photosProjects {
    name
    reports(page: 1) {
      total
      items {
        id
        title
        status
        failure {
          reason
          message
        }
        share {
          state
          sharedAt
        }
        pdfSha256
        downloadUrl
        photos {
          position
          sha256
          photo {
            id
            description
          }
        }
      }
    }
  }
}
`,
  },
  {
    // The office: a project's customer and written pages (body_html is already escaped), and a customer search that
    // finds a phone number by part of its digits. Write a page with
    // mutation { createPhotosPage(input: { projectId: "1", title: "Handover", body: "# Keys\n\nWith **Aroha**." }) { id bodyHtml } }
    query: `query OfficePagesAndCustomers {
  photosProjects {
    name
    customer {
      name
      phone
    }
    pages {
      total
      items {
        title
        excerpt
        updatedBy
        updatedAt
      }
    }
  }
  photosCustomers(q: "012 34") {
    total
    items {
      name
      company
      phone
      address {
        city
      }
      contacts {
        name
        role
      }
    }
  }
}
`,
  },
];
